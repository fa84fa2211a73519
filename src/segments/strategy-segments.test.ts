import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, grantRole } from '../../test/features.js';
import { flags } from '../../test/flags.js';
import { send } from '../../test/requests.js';
import {
  countEvents,
  createProject,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let member: TestUser;
let strategyId: string;
let ids: { first: number; second: number; other: number };

const segmentsOf = async (id: string) =>
  (await send(server, 'GET', `/api/admin/segments/strategies/${id}`)).body.segments.map(
    (s: { id: number }) => s.id,
  );
const set = (body: object, token?: string) =>
  send(
    server,
    'POST',
    '/api/admin/segments/strategies',
    { projectId: 'default', environmentId: 'development', strategyId, ...body },
    token,
  );

beforeAll(async () => {
  server = await startTestServer();
  viewer = await createUser(server, 3);
  member = await createUser(server, 3);
  await grantRole(server, member.id, 'default', 5);
  await createProject(server, 'other');
  const f = flags(server);
  const segment = (name: string, project?: string) =>
    f.createSegment({
      name,
      project,
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }],
    });
  ids = {
    first: (await segment('first')).id,
    second: (await segment('second')).id,
    other: (await segment('of-other', 'other')).id,
  };
  await f.create('flag');
  strategyId = (await f.addStrategy('flag', 'development', { name: 'default', segments: [ids.first] })).id;
});
afterAll(() => server.close());

describe('GET /api/admin/segments/strategies/:strategyId', () => {
  it("answers the strategy's segments; none for an unknown strategy", async () => {
    const res = await send(
      server,
      'GET',
      `/api/admin/segments/strategies/${strategyId}`,
      undefined,
      viewer.pat,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      segments: [expect.objectContaining({ id: ids.first, name: 'first', constraints: expect.any(Array) })],
    });
    expect((await send(server, 'GET', '/api/admin/segments/strategies/nothing')).body).toEqual({
      segments: [],
    });
    expect(
      (await send(server, 'GET', `/api/admin/segments/strategies/${strategyId}`, undefined, '')).status,
    ).toBe(401);
  });
});

describe('POST /api/admin/segments/strategies', () => {
  it('sets exactly the segments listed: 201 with the body, read back, feature-strategy-update', async () => {
    const res = await set({ segmentIds: [ids.second, ids.first] }, member.pat);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      projectId: 'default',
      environmentId: 'development',
      strategyId,
      segmentIds: [ids.second, ids.first],
    });
    expect(res.headers.location).toBe(`strategies/${strategyId}`);
    expect(await segmentsOf(strategyId)).toEqual([ids.first, ids.second]);
    expect(await lastEvent(server, 'feature-strategy-update')).toMatchObject({
      featureName: 'flag',
      environment: 'development',
      createdBy: member.username,
      data: { id: strategyId, segments: [ids.first, ids.second] },
      preData: { segments: [ids.first] },
    });
    // SDKs get it at once.
    const strategy = (await send(server, 'GET', '/api/admin/projects/default/features/flag')).body
      .environments[0].strategies[0];
    expect(strategy.segments).toEqual([ids.first, ids.second]);
    const events = await countEvents(server);
    expect((await set({ segmentIds: [ids.first, ids.second] })).status).toBe(201);
    expect(await countEvents(server)).toBe(events);
    expect((await set({ segmentIds: [] })).status).toBe(201);
    expect(await segmentsOf(strategyId)).toEqual([]);
  });

  it('refuses, changing nothing: 404 unknown strategy, 403 elsewhere or without the permission, 400, 401, 415', async () => {
    const read = () => segmentsOf(strategyId);
    await expectRefused(server, 404, () => set({ strategyId: 'nothing', segmentIds: [ids.first] }), read);
    await expectRefused(
      server,
      403,
      () => set({ environmentId: 'production', segmentIds: [ids.first] }),
      read,
    );
    await expectRefused(server, 403, () => set({ segmentIds: [ids.first] }, viewer.pat), read);
    const unknown = await expectRefused(server, 400, () => set({ segmentIds: [99999] }), read);
    expect(unknown.body.details[0].path).toBe('segmentIds');
    await expectRefused(server, 400, () => set({ segmentIds: [ids.other] }), read);
    await expectRefused(server, 400, () => set({ segmentIds: 'all' }), read);
    await expectRefused(server, 401, () => set({ segmentIds: [ids.first] }, ''), read);
    await expectRefused(
      server,
      415,
      () =>
        server.request('POST', '/api/admin/segments/strategies', {
          token: server.adminToken,
          body: JSON.stringify({
            projectId: 'default',
            environmentId: 'development',
            strategyId,
            segmentIds: [],
          }),
          contentType: 'text/plain',
        }),
      read,
    );
  });
});
