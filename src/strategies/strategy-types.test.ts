import { describe, expect, it } from 'vitest';
import { CLIENT_TOKEN, callers, server, useFeatureModelServer } from '../../test/feature-model.js';
import { admin } from '../../test/requests.js';

useFeatureModelServer();

describe('strategy types', () => {
  it('lists the built-in types with their parameters, to any user', async () => {
    const res = await server.request('GET', '/api/admin/strategies', { token: callers.viewer });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.strategies.map((s: { name: string }) => s.name)).toEqual([
      'flexibleRollout',
      'default',
      'userWithId',
      'applicationHostname',
      'remoteAddress',
    ]);
    expect(res.body.strategies[0]).toMatchObject({
      name: 'flexibleRollout',
      displayName: 'Gradual rollout',
      editable: false,
      deprecated: false,
    });
    expect(res.body.strategies[0].parameters.map((p: { name: string }) => p.name)).toEqual([
      'rollout',
      'stickiness',
      'groupId',
    ]);
    const one = await server.request('GET', '/api/admin/strategies/remoteAddress', admin(server));
    expect(one.status).toBe(200);
    expect(one.body.parameters).toEqual([
      { name: 'IPs', type: 'list', description: expect.any(String), required: true },
    ]);
    expect((await server.request('GET', '/api/admin/strategies/nope', admin(server))).status).toBe(404);
    expect((await server.request('GET', '/api/admin/strategies', { token: CLIENT_TOKEN })).status).toBe(403);
  });
});
