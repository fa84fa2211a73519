import { describe, expect, it } from 'vitest';
import {
  addStrategy,
  CLIENT_TOKEN,
  callers,
  environmentPath,
  expectRefused,
  lastEvent,
  makeFeature,
  makeProject,
  server,
  useFeatureModelServer,
} from '../../test/feature-model.js';
import { admin } from '../../test/requests.js';
import { countEvents } from '../../test/server.js';

useFeatureModelServer(async () => {
  await makeProject(server, 'other');
});

const segments = async () => (await server.request('GET', '/api/admin/segments', admin(server))).body;
const create = (body: unknown, token = server.adminToken, contentType?: string) =>
  server.request('POST', '/api/admin/segments', { token, body, contentType });
const beta = { contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] };

describe('POST /api/admin/segments', () => {
  it('creates a segment: 201 with an integer id, constraints with defaults, one segment-created event', async () => {
    const events = await countEvents(server, 'segment-created');
    const res = await create(
      { name: 'beta users', description: 'Early birds', constraints: [beta] },
      callers.editor,
    );
    expect(res.status).toBe(201);
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body).toMatchObject({
      name: 'beta users',
      description: 'Early birds',
      project: null,
      constraints: [{ ...beta, inverted: false, caseInsensitive: false }],
    });
    expect(res.body.createdBy).toBeTruthy();
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    const read = await server.request('GET', `/api/admin/segments/${res.body.id}`, { token: callers.viewer });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect((await segments()).segments.map((s: { name: string }) => s.name)).toContain('beta users');
    expect(await countEvents(server, 'segment-created')).toBe(events + 1);
    expect((await lastEvent(server, 'segment-created')).data).toMatchObject({
      id: res.body.id,
      name: 'beta users',
    });
  });

  it('accepts a project, and constraints on context fields that do not exist', async () => {
    const res = await create({
      name: 'in-other',
      project: 'other',
      constraints: [{ contextName: 'planet', operator: 'IN', values: ['mars'] }],
    });
    expect(res.status).toBe(201);
    expect(res.body.project).toBe('other');
  });

  it('refuses bad bodies (400), duplicate names (409), Viewers and client tokens (403), no token (401), text (415)', async () => {
    const bad: unknown[] = [
      {},
      { constraints: [] },
      { name: 'no-constraints' },
      { name: '', constraints: [] },
      { name: '   ', constraints: [] },
      { name: 'x'.repeat(101), constraints: [] },
      { name: 5, constraints: [] },
      { name: 'ok', constraints: 'none' },
      { name: 'ok', description: 7, constraints: [] },
      { name: 'ok', constraints: [{ contextName: 'userId', operator: 'IN', values: [] }] },
      { name: 'ok', constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: 'ten' }] },
      { name: 'ok', constraints: [{ contextName: 'userId', operator: 'SEMVER_EQ', value: 'v2.0.0' }] },
      { name: 'ok', constraints: [{ contextName: 'userId', operator: 'DATE_AFTER', value: 'someday' }] },
      { name: 'ok', constraints: [{ contextName: 'userId', operator: 'LIKE', values: ['a'] }] },
      { name: 'ok', constraints: [{ ...beta, note: 'extra' }] },
      { name: 'ok', constraints: [beta], project: 'no-such-project' },
    ];
    for (const body of bad)
      await expectRefused(server, segments, () => create(body), 400, JSON.stringify(body));
    await expectRefused(server, segments, () => create({ name: 'beta users', constraints: [] }), 409);
    await expectRefused(server, segments, () => create({ name: 'v', constraints: [] }, callers.viewer), 403);
    await expectRefused(server, segments, () => create({ name: 'v', constraints: [] }, CLIENT_TOKEN), 403);
    await expectRefused(server, segments, () => create('x', callers.viewer, 'text/plain'), 403);
    await expectRefused(
      server,
      segments,
      () => server.request('POST', '/api/admin/segments', { body: { name: 'v', constraints: [] } }),
      401,
    );
    await expectRefused(
      server,
      segments,
      () => create('{"name":"t","constraints":[]}', server.adminToken, 'text/plain'),
      415,
    );
  });

  it('enforces the legal values of the context field', async () => {
    await server.request('POST', '/api/admin/context', {
      ...admin(server),
      body: { name: 'tier', legalValues: [{ value: 'gold' }] },
    });
    const constraint = { contextName: 'tier', operator: 'IN', values: ['silver'] };
    await expectRefused(server, segments, () => create({ name: 'silver', constraints: [constraint] }), 400);
    expect((await create({ name: 'gold', constraints: [{ ...constraint, values: ['gold'] }] })).status).toBe(
      201,
    );
  });

  it('validates a name: 204 when free, 409 when taken', async () => {
    const check = (name: string) =>
      server.request('POST', '/api/admin/segments/validate', { ...admin(server), body: { name } });
    expect((await check('free name')).status).toBe(204);
    expect((await check('beta users')).status).toBe(409);
  });
});

describe('PUT and DELETE /api/admin/segments/:id', () => {
  it('replaces a segment: 204, segment-updated with preData', async () => {
    const made = (await create({ name: 'to-change', constraints: [beta] })).body;
    const events = await countEvents(server, 'segment-updated');
    const res = await server.request('PUT', `/api/admin/segments/${made.id}`, {
      token: callers.editor,
      body: { name: 'changed', description: 'now', constraints: [] },
    });
    expect(res.status).toBe(204);
    const read = (await server.request('GET', `/api/admin/segments/${made.id}`, admin(server))).body;
    expect(read).toMatchObject({ id: made.id, name: 'changed', description: 'now', constraints: [] });
    expect(await countEvents(server, 'segment-updated')).toBe(events + 1);
    const event = await lastEvent(server, 'segment-updated');
    expect(event.preData).toMatchObject({ name: 'to-change' });
    expect(event.data).toMatchObject({ name: 'changed' });
    // its own name is not a duplicate
    const same = await server.request('PUT', `/api/admin/segments/${made.id}`, {
      ...admin(server),
      body: { name: 'changed', constraints: [beta] },
    });
    expect(same.status).toBe(204);
  });

  it('refuses bad bodies (400), unknown ids (404), taken names (409), Viewers (403)', async () => {
    const made = (await create({ name: 'stable', constraints: [] })).body;
    const put = (id: unknown, body: unknown, token = server.adminToken) =>
      server.request('PUT', `/api/admin/segments/${id}`, { token, body });
    await expectRefused(server, segments, () => put(made.id, { name: 'stable' }), 400);
    await expectRefused(
      server,
      segments,
      () => put(made.id, { name: 'stable', constraints: [{ contextName: 'userId', operator: 'IN' }] }),
      400,
    );
    await expectRefused(server, segments, () => put('abc', { name: 'stable', constraints: [] }), 400);
    await expectRefused(server, segments, () => put(99999, { name: 'stable', constraints: [] }), 404);
    await expectRefused(server, segments, () => put(made.id, { name: 'beta users', constraints: [] }), 409);
    await expectRefused(
      server,
      segments,
      () => put(made.id, { name: 'x', constraints: [] }, callers.viewer),
      403,
    );
    await expectRefused(
      server,
      segments,
      () => server.request('DELETE', `/api/admin/segments/${made.id}`, { token: callers.viewer }),
      403,
    );
    await expectRefused(
      server,
      segments,
      () => server.request('DELETE', '/api/admin/segments/99999', admin(server)),
      404,
    );
    await expectRefused(
      server,
      segments,
      () => server.request('GET', '/api/admin/segments/99999', admin(server)),
      404,
    );
  });

  it('deletes an unused segment: 204, segment-deleted', async () => {
    const made = (await create({ name: 'short-lived', constraints: [] })).body;
    const res = await server.request('DELETE', `/api/admin/segments/${made.id}`, { token: callers.editor });
    expect(res.status).toBe(204);
    expect((await server.request('GET', `/api/admin/segments/${made.id}`, admin(server))).status).toBe(404);
    expect((await lastEvent(server, 'segment-deleted')).preData).toMatchObject({ name: 'short-lived' });
  });
});

describe('segments used by strategies', () => {
  it('lists the strategies using a segment and refuses to delete it while they do', async () => {
    const segment = (await create({ name: 'in-use', constraints: [beta] })).body;
    await makeFeature(server, 'segmented');
    const strategy = await addStrategy(server, 'segmented', { name: 'default', segments: [segment.id] });
    expect(strategy.segments).toEqual([segment.id]);

    const used = await server.request('GET', `/api/admin/segments/${segment.id}/strategies`, {
      token: callers.viewer,
    });
    expect(used.status).toBe(200);
    expect(used.body.strategies).toEqual([
      {
        id: strategy.id,
        featureName: 'segmented',
        projectId: 'default',
        environment: 'development',
        strategyName: 'default',
      },
    ]);
    const refused = await expectRefused(
      server,
      segments,
      () => server.request('DELETE', `/api/admin/segments/${segment.id}`, admin(server)),
      409,
    );
    expect(refused.body.message).toContain('segmented');
    expect((await server.request('GET', '/api/admin/segments/99999/strategies', admin(server))).status).toBe(
      404,
    );

    await server.request(
      'DELETE',
      `${environmentPath('segmented')}/strategies/${strategy.id}`,
      admin(server),
    );
    expect((await server.request('DELETE', `/api/admin/segments/${segment.id}`, admin(server))).status).toBe(
      204,
    );
  });

  it('names at most five of the features using it when it refuses, and how many more', async () => {
    const segment = (await create({ name: 'widely-used', constraints: [beta] })).body;
    for (let i = 1; i <= 7; i++) {
      await makeFeature(server, `wide-${i}`);
      await addStrategy(server, `wide-${i}`, { name: 'default', segments: [segment.id] });
    }
    const refused = await server.request('DELETE', `/api/admin/segments/${segment.id}`, admin(server));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'The segment "widely-used" is used by 7 strategies (features wide-1, wide-2, wide-3, wide-4, wide-5 and 2 more): remove it from them first.',
    );
  });

  it("keeps a project's segment to that project's strategies", async () => {
    const other = (await segments()).segments.find((s: { name: string }) => s.name === 'in-other');
    await makeFeature(server, 'default-feature');
    const res = await server.request('POST', `${environmentPath('default-feature')}/strategies`, {
      ...admin(server),
      body: { name: 'default', segments: [other.id] },
    });
    expect(res.status).toBe(400);
    const global = (await create({ name: 'global', constraints: [] })).body;
    await addStrategy(server, 'default-feature', { name: 'default', segments: [global.id] });
    const narrowing = await server.request('PUT', `/api/admin/segments/${global.id}`, {
      ...admin(server),
      body: { name: 'global', project: 'other', constraints: [] },
    });
    expect(narrowing.status).toBe(409);
  });
});
