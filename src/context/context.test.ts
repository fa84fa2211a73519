import { describe, expect, it } from 'vitest';
import {
  addStrategy,
  CLIENT_TOKEN,
  callers,
  contextField,
  contextFields,
  expectRefused,
  lastEvent,
  makeFeature,
  server,
  useFeatureModelServer,
} from '../../test/feature-model.js';
import { admin } from '../../test/requests.js';
import { countEvents } from '../../test/server.js';

useFeatureModelServer();

describe('reading context fields', () => {
  it('lists the seeded fields in their order, to any caller but client tokens', async () => {
    const res = await server.request('GET', '/api/admin/context', { token: callers.viewer });
    expect(res.status).toBe(200);
    expect(res.body.map((f: { name: string }) => f.name)).toEqual([
      'environment',
      'userId',
      'appName',
      'currentTime',
      'sessionId',
    ]);
    expect(res.body[4]).toMatchObject({ name: 'sessionId', stickiness: true, sortOrder: 4, legalValues: [] });
    expect(Date.parse(res.body[0].createdAt)).not.toBeNaN();
    expect((await server.request('GET', '/api/admin/context', { token: CLIENT_TOKEN })).status).toBe(403);
    expect((await server.request('GET', '/api/admin/context')).status).toBe(401);
  });

  it('answers 404 for an unknown field', async () => {
    const res = await server.request('GET', '/api/admin/context/nope', admin(server));
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('"nope"');
  });
});

describe('POST /api/admin/context', () => {
  it('creates a field: 201, Location, defaults, one context-field-created event', async () => {
    const before = await countEvents(server, 'context-field-created');
    const res = await server.request('POST', '/api/admin/context', {
      token: callers.editor,
      body: {
        name: 'region',
        description: 'Where the user is',
        legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('context/region');
    expect(res.body).toMatchObject({
      name: 'region',
      description: 'Where the user is',
      stickiness: false,
      sortOrder: 10,
      legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
    });
    expect(await contextField('region')).toEqual(res.body);
    expect(await countEvents(server, 'context-field-created')).toBe(before + 1);
    expect((await lastEvent(server, 'context-field-created')).data).toMatchObject({ name: 'region' });
  });

  it('refuses duplicates (409), bad bodies (400), Viewers and client tokens (403), no token (401), text (415)', async () => {
    const create = (body: unknown, token = server.adminToken, contentType?: string) =>
      server.request('POST', '/api/admin/context', { token, body, contentType });
    await expectRefused(server, contextFields, () => create({ name: 'region' }), 409);
    await expectRefused(server, contextFields, () => create({ name: 'userId' }), 409);
    const bad: unknown[] = [
      {},
      { name: '' },
      { name: 'has space' },
      { name: 'a/b' },
      { name: 'x'.repeat(101) },
      { name: 5 },
      { name: 'ok1', stickiness: 'yes' },
      { name: 'ok1', sortOrder: 'abc' },
      { name: 'ok1', sortOrder: 1.5 },
      { name: 'ok1', description: 'd'.repeat(251) },
      { name: 'ok1', legalValues: 'eu' },
      { name: 'ok1', legalValues: [{ value: '' }] },
      { name: 'ok1', legalValues: [{ value: 'v'.repeat(101) }] },
      { name: 'ok1', legalValues: [{ value: 'a', extra: 1 }] },
      { name: 'ok1', legalValues: [{ description: 'no value' }] },
      { name: 'ok1', legalValues: [{ value: 'a' }, { value: 'a' }] },
    ];
    for (const body of bad)
      await expectRefused(server, contextFields, () => create(body), 400, JSON.stringify(body));
    await expectRefused(server, contextFields, () => create({ name: 'ok1' }, callers.viewer), 403);
    await expectRefused(server, contextFields, () => create({ name: 'ok1' }, CLIENT_TOKEN), 403);
    await expectRefused(
      server,
      contextFields,
      () => create({ name: 'ok1' }, callers.viewer, 'text/plain'),
      403,
    );
    await expectRefused(
      server,
      contextFields,
      () => server.request('POST', '/api/admin/context', { body: { name: 'ok1' } }),
      401,
    );
    await expectRefused(
      server,
      contextFields,
      () => create('{"name":"ok1"}', server.adminToken, 'text/plain'),
      415,
    );
  });

  it('validates a name: 200 when free, 409 when taken, 400 when not URL-friendly', async () => {
    const check = (name: unknown) =>
      server.request('POST', '/api/admin/context/validate', { ...admin(server), body: { name } });
    expect((await check('fresh')).status).toBe(200);
    expect((await check('region')).status).toBe(409);
    expect((await check('not ok')).status).toBe(400);
    expect(
      (
        await server.request('POST', '/api/admin/context/validate', {
          token: callers.viewer,
          body: { name: 'x' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('DELETE /api/admin/context/:contextField', () => {
  it('deletes an unused field with a context-field-deleted event', async () => {
    await server.request('POST', '/api/admin/context', { ...admin(server), body: { name: 'temporary' } });
    const events = await countEvents(server, 'context-field-deleted');
    const res = await server.request('DELETE', '/api/admin/context/temporary', { token: callers.editor });
    expect(res.status).toBe(200);
    expect((await server.request('GET', '/api/admin/context/temporary', admin(server))).status).toBe(404);
    expect(await countEvents(server, 'context-field-deleted')).toBe(events + 1);
    expect((await lastEvent(server, 'context-field-deleted')).preData).toMatchObject({ name: 'temporary' });
  });

  it('refuses (409) while a strategy or a segment constraint uses the field', async () => {
    await server.request('POST', '/api/admin/context', { ...admin(server), body: { name: 'country' } });
    await server.request('POST', '/api/admin/context', { ...admin(server), body: { name: 'browser' } });
    await makeFeature(server, 'uses-country');
    await addStrategy(server, 'uses-country', {
      name: 'default',
      constraints: [{ contextName: 'country', operator: 'IN', values: ['no'] }],
    });
    const segment = await server.request('POST', '/api/admin/segments', {
      ...admin(server),
      body: {
        name: 'firefox',
        constraints: [{ contextName: 'browser', operator: 'IN', values: ['firefox'] }],
      },
    });
    expect(segment.status).toBe(201);
    const byStrategy = await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', '/api/admin/context/country', admin(server)),
      409,
    );
    expect(byStrategy.body.message).toContain('uses-country');
    const bySegment = await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', '/api/admin/context/browser', admin(server)),
      409,
    );
    expect(bySegment.body.message).toContain('firefox');
  });

  it('answers 404 for an unknown field, 403 to Viewers and client tokens', async () => {
    await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', '/api/admin/context/nope', admin(server)),
      404,
    );
    await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', '/api/admin/context/region', { token: callers.viewer }),
      403,
    );
    await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', '/api/admin/context/region', { token: CLIENT_TOKEN }),
      403,
    );
    await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', '/api/admin/context/region'),
      401,
    );
  });
});
