import { describe, expect, it } from 'vitest';
import {
  callers,
  eventsOf,
  expectCallerRefusals,
  expectRefused,
  server,
  tagTypes,
  useFeatureServer,
} from '../../test/features.js';
import { admin } from '../../test/requests.js';

useFeatureServer();

describe('tag types', () => {
  it('lists the seeded type and creates one: 201, read back, tag-type-created', async () => {
    expect(await tagTypes()).toEqual([{ name: 'simple', description: expect.any(String), icon: '#' }]);
    const res = await server.request('POST', '/api/admin/tag-types', {
      ...admin(server),
      body: { name: 'team', description: 'Owning team', icon: 'group' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'team', description: 'Owning team', icon: 'group' });
    const read = await server.request('GET', '/api/admin/tag-types/team', { token: callers.viewer.pat });
    expect(read.body).toEqual({
      version: 1,
      tagType: { name: 'team', description: 'Owning team', icon: 'group' },
    });
    expect((await eventsOf(server, 'type=tag-type-created'))[0]).toMatchObject({ data: { name: 'team' } });
    expect((await server.request('GET', '/api/admin/tag-types/nope', admin(server))).status).toBe(404);
  });

  it('refuses duplicates (409), bad bodies (400) and bad callers', async () => {
    const url = '/api/admin/tag-types';
    await expectRefused(
      server,
      409,
      () => server.request('POST', url, { ...admin(server), body: { name: 'team' } }),
      tagTypes,
    );
    for (const body of [
      {},
      { name: 'x' },
      { name: 'x'.repeat(51) },
      { name: 'has space' },
      { name: 7 },
      { name: 'okay', description: 5 },
      { name: 'okay', extra: true },
    ]) {
      await expectRefused(
        server,
        400,
        () => server.request('POST', url, { ...admin(server), body }),
        tagTypes,
        JSON.stringify(body),
      );
    }
    await expectCallerRefusals(server, callers, { method: 'POST', url, body: { name: 'sneaky' } }, tagTypes);
  });

  it('validates a name: 200 with the type when free, 409 when taken, 400 when bad', async () => {
    const validate = (body: unknown) =>
      server.request('POST', '/api/admin/tag-types/validate', { ...admin(server), body });
    const ok = await validate({ name: 'region' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ valid: true, tagType: { name: 'region', description: null, icon: null } });
    expect((await validate({ name: 'team' })).status).toBe(409);
    expect((await validate({ name: 'a' })).status).toBe(400);
    expect(
      (
        await server.request('POST', '/api/admin/tag-types/validate', {
          token: callers.viewer.pat,
          body: { name: 'r2' },
        })
      ).status,
    ).toBe(403);
  });

  it('updates a type: 200, tag-type-updated with preData; renaming is 400; unknown is 404', async () => {
    const url = '/api/admin/tag-types/team';
    const res = await server.request('PUT', url, { ...admin(server), body: { description: 'The owners' } });
    expect(res.status).toBe(200);
    expect((await server.request('GET', url, admin(server))).body.tagType).toEqual({
      name: 'team',
      description: 'The owners',
      icon: 'group',
    });
    expect((await eventsOf(server, 'type=tag-type-updated'))[0]).toMatchObject({
      preData: { description: 'Owning team' },
      data: { description: 'The owners' },
    });
    for (const body of [{ name: 'squad' }, { description: 5 }, { colour: 'red' }]) {
      await expectRefused(
        server,
        400,
        () => server.request('PUT', url, { ...admin(server), body }),
        tagTypes,
        JSON.stringify(body),
      );
    }
    await expectRefused(
      server,
      404,
      () =>
        server.request('PUT', '/api/admin/tag-types/nope', { ...admin(server), body: { description: 'x' } }),
      tagTypes,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'PUT', url, body: { description: 'hacked' } },
      tagTypes,
    );
  });
});
