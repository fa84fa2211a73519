import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addStrategy,
  type Callers,
  CLIENT_TOKEN,
  environmentPath,
  expectRefused,
  lastEvent,
  makeCallers,
  makeFeature,
  makeProject,
  readFeature,
  startFeatureServer,
} from '../../../test/feature-model.js';
import { countEvents, type TestServer, writeDirectly } from '../../../test/server.js';

let server: TestServer;
let callers: Callers;
let segmentA: number;
let segmentB: number;
beforeAll(async () => {
  server = await startFeatureServer();
  callers = await makeCallers(server);
  await makeProject(server, 'other');
  await makeFeature(server, 'pricing');
  await makeFeature(server, 'neighbour');
  await makeFeature(server, 'abroad', 'other');
  const segment = async (name: string) =>
    (
      await server.request('POST', '/api/admin/segments', {
        token: server.adminToken,
        body: { name, constraints: [] },
      })
    ).body.id as number;
  segmentA = await segment('a');
  segmentB = await segment('b');
});
afterAll(() => server.close());

const strategyUrl = (id: string, feature = 'pricing', environment = 'development', project = 'default') =>
  `${environmentPath(feature, environment, project)}/strategies/${id}`;
const get = async (id: string) =>
  (await server.request('GET', strategyUrl(id), { token: server.adminToken })).body;
const put = (id: string, body: unknown, token = server.adminToken, contentType?: string) =>
  server.request('PUT', strategyUrl(id), { token, body, contentType });

async function rich() {
  return addStrategy(server, 'pricing', {
    name: 'flexibleRollout',
    title: 'Half',
    parameters: { rollout: '50', stickiness: 'userId', groupId: 'g' },
    constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    variants: [{ name: 'v', weight: 0, weightType: 'variable', stickiness: 'default' }],
    segments: [segmentA],
  });
}

describe('E11 PUT …/strategies/:strategyId', () => {
  it('replaces the configuration: 200 with the strategy, read back, one feature-strategy-update event', async () => {
    const before = await rich();
    const events = await countEvents(server, 'feature-strategy-update');
    const res = await put(
      before.id,
      {
        name: 'flexibleRollout',
        parameters: { rollout: '75' },
        constraints: [
          { contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['a'], caseInsensitive: true },
          { contextName: 'appName', operator: 'NUM_GT', value: '3', inverted: true },
        ],
        variants: [
          { name: 'y', weight: 0, weightType: 'variable', stickiness: 'default' },
          {
            name: 'x',
            weight: 0,
            weightType: 'variable',
            stickiness: 'default',
            payload: { type: 'json', value: '[1]' },
          },
        ],
      },
      callers.editor,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: before.id,
      name: 'flexibleRollout',
      title: 'Half',
      disabled: false,
      featureName: 'pricing',
      parameters: { rollout: '75', stickiness: 'default', groupId: 'pricing' },
      constraints: [
        {
          contextName: 'userId',
          operator: 'STR_STARTS_WITH',
          values: ['a'],
          inverted: false,
          caseInsensitive: true,
        },
        {
          contextName: 'appName',
          operator: 'NUM_GT',
          values: [],
          value: '3',
          inverted: true,
          caseInsensitive: false,
        },
      ],
      variants: [
        {
          name: 'x',
          weight: 500,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '[1]' },
        },
        { name: 'y', weight: 500, weightType: 'variable', stickiness: 'default' },
      ],
      segments: [segmentA],
      sortOrder: before.sortOrder,
    });
    expect(await get(before.id)).toEqual(res.body);
    const feature = await readFeature(server, 'pricing');
    expect(feature.environments[0].strategies.find((s: { id: string }) => s.id === before.id)).toEqual(
      res.body,
    );
    expect(await countEvents(server, 'feature-strategy-update')).toBe(events + 1);
    const event = await lastEvent(server, 'feature-strategy-update');
    expect(event).toMatchObject({
      featureName: 'pricing',
      project: 'default',
      environment: 'development',
      data: { id: before.id, parameters: { rollout: '75' } },
      preData: {
        id: before.id,
        parameters: { rollout: '50', stickiness: 'userId', groupId: 'g' },
        title: 'Half',
      },
    });
  });

  it('empties what is omitted: parameters (with defaults), constraints, variants; keeps title, disabled, segments', async () => {
    const before = await rich();
    const res = await put(before.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'flexibleRollout',
      title: 'Half',
      disabled: false,
      parameters: { rollout: '100', stickiness: 'default', groupId: 'pricing' },
      constraints: [],
      variants: [],
      segments: [segmentA],
    });
    const nulls = await put(before.id, { title: null, disabled: null, segments: [segmentB, segmentA] });
    expect(nulls.body).toMatchObject({ title: 'Half', disabled: false, segments: [segmentA, segmentB] });
    const cleared = await put(before.id, { title: 'Renamed', segments: [] });
    expect(cleared.body).toMatchObject({ title: 'Renamed', segments: [] });
  });

  it('changes the type when given; parameters of other types are kept as strings', async () => {
    const before = await rich();
    const res = await put(before.id, { name: 'userWithId', parameters: { userIds: 'a,b', n: 2 } });
    expect(res.body).toMatchObject({ name: 'userWithId', parameters: { userIds: 'a,b', n: '2' } });
    expect((await put(before.id, { name: 'default' })).body.parameters).toEqual({});
  });

  it('never moves the strategy: sortOrder is ignored', async () => {
    const before = await rich();
    const res = await put(before.id, { sortOrder: 999 });
    expect(res.body.sortOrder).toBe(before.sortOrder);
  });

  it('ignores unknown top-level properties, but not unknown properties in constraints', async () => {
    const before = await rich();
    expect((await put(before.id, { colour: 'blue' })).status).toBe(200);
    await expectRefused(
      server,
      () => get(before.id),
      () =>
        put(before.id, {
          constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'], colour: 1 }],
        }),
      400,
    );
  });

  it('accepts constraints on unknown context fields and enforces legal values', async () => {
    const before = await rich();
    expect(
      (
        await put(before.id, {
          constraints: [{ contextName: 'galaxy', operator: 'IN', values: ['milky-way'] }],
        })
      ).status,
    ).toBe(200);
    await server.request('POST', '/api/admin/context', {
      token: server.adminToken,
      body: { name: 'size', legalValues: [{ value: 's' }, { value: 'm' }] },
    });
    const constraint = { contextName: 'size', operator: 'IN', values: ['xl'] };
    await expectRefused(
      server,
      () => get(before.id),
      () => put(before.id, { constraints: [constraint] }),
      400,
    );
    await server.request('PUT', '/api/admin/context/size', {
      token: server.adminToken,
      body: { legalValues: [{ value: 'xl' }] },
    });
    expect((await put(before.id, { constraints: [constraint] })).status).toBe(200);
  });

  it('switches the environment off when every strategy is disabled (the contract example)', async () => {
    await makeFeature(server, 'single');
    const only = await addStrategy(server, 'single', { name: 'default' });
    await server.request('POST', `${environmentPath('single')}/on`, { token: server.adminToken });
    expect((await readFeature(server, 'single')).environments[0].enabled).toBe(true);
    const disabledEvents = await countEvents(server, 'feature-environment-disabled');
    const res = await server.request('PUT', `${environmentPath('single')}/strategies/${only.id}`, {
      token: server.adminToken,
      body: { name: 'default', disabled: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.disabled).toBe(true);
    const feature = await readFeature(server, 'single');
    expect(feature.environments[0]).toMatchObject({ name: 'development', enabled: false });
    expect(await countEvents(server, 'feature-environment-disabled')).toBe(disabledEvents + 1);
    // disabling again: the environment is already off, no second event
    await server.request('PUT', `${environmentPath('single')}/strategies/${only.id}`, {
      token: server.adminToken,
      body: { disabled: true },
    });
    expect(await countEvents(server, 'feature-environment-disabled')).toBe(disabledEvents + 1);
  });

  it('leaves the environment on while another strategy is active, and other strategies untouched', async () => {
    await makeFeature(server, 'double');
    const one = await addStrategy(server, 'double', { name: 'default' });
    const two = await addStrategy(server, 'double', { name: 'userWithId', parameters: { userIds: 'x' } });
    await server.request('POST', `${environmentPath('double')}/on`, { token: server.adminToken });
    await server.request('PUT', `${environmentPath('double')}/strategies/${one.id}`, {
      token: server.adminToken,
      body: { disabled: true },
    });
    const feature = await readFeature(server, 'double');
    expect(feature.environments[0].enabled).toBe(true);
    expect(feature.environments[0].strategies[1]).toEqual(two);
  });

  it('refuses every kind of bad input with 400 and changes nothing', async () => {
    const before = await rich();
    const bad: unknown[] = [
      { name: 'nope' },
      { name: 7 },
      { title: 7 },
      { title: 't'.repeat(256) },
      { disabled: 'true' },
      { disabled: 0 },
      { sortOrder: 'top' },
      { parameters: [] },
      { parameters: 'x' },
      { parameters: { rollout: '-5' } },
      { constraints: {} },
      { constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: '12abc' }] },
      { constraints: [{ contextName: 'userId', operator: 'SEMVER_LT', value: '1.x' }] },
      { constraints: [{ contextName: 'userId', operator: 'DATE_BEFORE', value: 'not-a-date' }] },
      { constraints: [{ contextName: 'userId', operator: 'BETWEEN', values: ['1'] }] },
      { constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'], inverted: 'no' }] },
      { segments: [999999] },
      { segments: 'a' },
      { variants: [{ name: 'v', weight: 1001, weightType: 'variable', stickiness: 'default' }] },
      { variants: [{ name: 'v', weight: 10, weightType: 'fix', stickiness: 'default' }] },
      { variants: {} },
      [],
    ];
    for (const body of bad)
      await expectRefused(
        server,
        () => get(before.id),
        () => put(before.id, body),
        400,
        JSON.stringify(body),
      );
  });

  it('answers 404 for an unknown strategy, 403 for one of another feature or project, and changes nothing', async () => {
    const mine = await rich();
    const theirs = await addStrategy(server, 'neighbour', { name: 'default' });
    const abroad = await addStrategy(server, 'abroad', { name: 'default' }, 'development', 'other');
    const body = { name: 'default', disabled: true };
    await expectRefused(
      server,
      () => get(mine.id),
      () => put('no-such-strategy', body),
      404,
    );
    const read = async () => [
      await get(mine.id),
      (await server.request('GET', strategyUrl(theirs.id, 'neighbour'), { token: server.adminToken })).body,
    ];
    await expectRefused(server, read, () => put(theirs.id, body), 403);
    await expectRefused(
      server,
      read,
      () => server.request('PUT', strategyUrl(abroad.id), { token: server.adminToken, body }),
      403,
    );
    await expectRefused(
      server,
      read,
      () =>
        server.request('PUT', strategyUrl(mine.id, 'pricing', 'development', 'other'), {
          token: server.adminToken,
          body,
        }),
      403,
    );
    await expectRefused(
      server,
      read,
      () =>
        server.request('PUT', strategyUrl(mine.id, 'pricing', 'production'), {
          token: server.adminToken,
          body,
        }),
      403,
    );
  });

  it('is refused to Viewers and client tokens (403), without a token (401), and to text bodies (415)', async () => {
    const mine = await rich();
    const read = () => get(mine.id);
    await expectRefused(server, read, () => put(mine.id, { disabled: true }, callers.viewer), 403);
    await expectRefused(server, read, () => put(mine.id, 'x', callers.viewer, 'text/plain'), 403);
    await expectRefused(server, read, () => put(mine.id, { disabled: true }, CLIENT_TOKEN), 403);
    await expectRefused(server, read, () => server.request('PUT', strategyUrl(mine.id), { body: {} }), 401);
    await expectRefused(server, read, () => put(mine.id, '{}', server.adminToken, 'text/plain'), 415);
    await expectRefused(
      server,
      read,
      () => server.request('PUT', strategyUrl(mine.id), { token: server.adminToken }),
      415,
    );
  });

  it('answers 404 once the feature is archived', async () => {
    await makeFeature(server, 'old');
    const strategy = await addStrategy(server, 'old', { name: 'default' });
    await writeDirectly(server, 'UPDATE features SET archived_at = now() WHERE name = $1', ['old']);
    const res = await server.request('PUT', `${environmentPath('old')}/strategies/${strategy.id}`, {
      token: server.adminToken,
      body: { disabled: true },
    });
    expect(res.status).toBe(404);
  });
});
