import { describe, expect, it } from 'vitest';
import {
  CLIENT_TOKEN,
  callers,
  expectRefused,
  lastEvent,
  listStrategies,
  makeFeature,
  makeProject,
  readFeature,
  server,
  strategiesPath,
  useFeatureModelServer,
} from '../../../test/feature-model.js';
import { admin } from '../../../test/requests.js';
import { countEvents } from '../../../test/server.js';

useFeatureModelServer(async () => {
  await makeProject(server, 'other');
  await makeFeature(server, 'checkout');
  await makeFeature(server, 'search');
  await makeFeature(server, 'elsewhere', 'other');
  await makeFeature(server, 'elsewhere-high');
});

const post = (body: unknown, token = server.adminToken, feature = 'checkout', contentType?: string) =>
  server.request('POST', strategiesPath(feature), { token, body, contentType });

describe('POST …/strategies', () => {
  it('adds a strategy: 200, sortOrder last + 1, shown by the feature, one feature-strategy-add event', async () => {
    const events = await countEvents(server, 'feature-strategy-add');
    const first = await post({ name: 'default' }, callers.editor);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.any(String),
      name: 'default',
      title: null,
      disabled: false,
      featureName: 'checkout',
      constraints: [],
      parameters: {},
      variants: [],
      segments: [],
      sortOrder: 0,
    });
    const second = await post({
      name: 'userWithId',
      title: 'Staff',
      parameters: { userIds: 'alice,bob' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    });
    expect(second.body).toMatchObject({ name: 'userWithId', title: 'Staff', sortOrder: 1 });
    expect(second.body.constraints).toEqual([
      { contextName: 'appName', operator: 'IN', values: ['web'], inverted: false, caseInsensitive: false },
    ]);
    expect(await countEvents(server, 'feature-strategy-add')).toBe(events + 2);
    const event = await lastEvent(server, 'feature-strategy-add');
    expect(event).toMatchObject({
      featureName: 'checkout',
      project: 'default',
      environment: 'development',
      data: { id: second.body.id, name: 'userWithId' },
    });
    const feature = await readFeature(server, 'checkout');
    expect(feature.environments[0].strategies.map((s: { id: string }) => s.id)).toEqual([
      first.body.id,
      second.body.id,
    ]);
    expect(feature.environments[1].strategies).toEqual([]);
    expect(await listStrategies()).toEqual([first.body, second.body]);
  });

  it('normalizes flexibleRollout parameters: defaults, strings', async () => {
    const bare = await post({ name: 'flexibleRollout' }, server.adminToken, 'search');
    expect(bare.body.parameters).toEqual({ rollout: '100', stickiness: 'default', groupId: 'search' });
    const given = await post(
      { name: 'flexibleRollout', parameters: { rollout: 30, stickiness: 'userId' } },
      server.adminToken,
      'search',
    );
    expect(given.body.parameters).toEqual({ rollout: '30', stickiness: 'userId', groupId: 'search' });
  });

  it('keeps title, disabled, segments, constraints on unknown context fields, and fixed strategy variants', async () => {
    const segment = await server.request('POST', '/api/admin/segments', {
      ...admin(server),
      body: { name: 'staff', constraints: [] },
    });
    const res = await post(
      {
        name: 'default',
        title: 'Everything',
        disabled: true,
        segments: [segment.body.id, segment.body.id],
        constraints: [
          { contextName: 'planet', operator: 'IN', values: ['mars'], caseInsensitive: true },
          { contextName: 'version', operator: 'SEMVER_GTE', value: '2.0.0', inverted: true },
        ],
        variants: [
          {
            name: 'blue',
            weight: 0,
            weightType: 'variable',
            stickiness: 'default',
            payload: { type: 'string', value: 'b' },
          },
          { name: 'red', weight: 100, weightType: 'fix', stickiness: 'default' },
        ],
        unknownTopLevel: 'ignored',
      },
      server.adminToken,
      'search',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Everything',
      disabled: true,
      segments: [segment.body.id],
      variants: [
        {
          name: 'blue',
          weight: 900,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'string', value: 'b' },
        },
        { name: 'red', weight: 100, weightType: 'fix', stickiness: 'default' },
      ],
    });
    expect(res.body.constraints[1]).toEqual({
      contextName: 'version',
      operator: 'SEMVER_GTE',
      values: [],
      value: '2.0.0',
      inverted: true,
      caseInsensitive: false,
    });
    const read = await server.request('GET', `${strategiesPath('search')}/${res.body.id}`, {
      token: callers.viewer,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('puts a strategy beside the last when the last is at the highest position there is', async () => {
    const highest = await post(
      { name: 'default', sortOrder: 2147483647 },
      server.adminToken,
      'elsewhere-high',
    );
    expect(highest.status).toBe(200);
    const next = await post({ name: 'default' }, server.adminToken, 'elsewhere-high');
    expect(next.status).toBe(200);
    expect(next.body.sortOrder).toBe(2147483647);
  });

  it('honours a sortOrder sent on creation', async () => {
    const res = await post({ name: 'default', sortOrder: 50 }, server.adminToken, 'search');
    expect(res.body.sortOrder).toBe(50);
    expect((await post({ name: 'default' }, server.adminToken, 'search')).body.sortOrder).toBe(51);
  });

  it('refuses every kind of bad input with 400 and changes nothing', async () => {
    const bad: unknown[] = [
      {},
      { name: 'nope' },
      { name: '' },
      { name: 5 },
      { name: 'x'.repeat(101) },
      { name: 'default', title: 5 },
      { name: 'default', title: 't'.repeat(256) },
      { name: 'default', disabled: 'yes' },
      { name: 'default', parameters: 'rollout=5' },
      { name: 'default', parameters: { a: { nested: true } } },
      { name: 'default', parameters: { a: null } },
      { name: 'flexibleRollout', parameters: { rollout: '101' } },
      { name: 'flexibleRollout', parameters: { rollout: 'most' } },
      { name: 'default', constraints: {} },
      { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: [] }] },
      { name: 'default', constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: 'abc' }] },
      {
        name: 'default',
        constraints: [{ contextName: 'userId', operator: 'DATE_AFTER', value: '2024-13-45' }],
      },
      { name: 'default', constraints: [{ contextName: 'userId', operator: 'SEMVER_EQ', value: 'v2.0.0' }] },
      { name: 'default', constraints: [{ contextName: 'userId', operator: 'in', values: ['a'] }] },
      { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'], x: 1 }] },
      { name: 'default', segments: [999999] },
      { name: 'default', segments: ['one'] },
      {
        name: 'default',
        variants: [{ name: 'a', weight: 1001, weightType: 'variable', stickiness: 'default' }],
      },
      { name: 'default', variants: [{ name: 'a', weight: 100, weightType: 'fix', stickiness: 'default' }] },
      { name: 'default', variants: [{ name: 'a', weight: 100, overrides: [] }] },
      {
        name: 'default',
        variants: [
          { name: 'a', weight: 1 },
          { name: 'a', weight: 1 },
        ],
      },
      { name: 'default', sortOrder: 'first' },
    ];
    for (const body of bad)
      await expectRefused(
        server,
        () => listStrategies(),
        () => post(body),
        400,
        JSON.stringify(body),
      );
    const unknownType = await post({ name: 'gradualRolloutRandom' });
    expect(unknownType.body.message).toContain('"gradualRolloutRandom"');
  });

  it('answers 404 for an unknown project, feature or environment, or a feature of another project', async () => {
    const body = { name: 'default' };
    const tries = [
      strategiesPath('nope'),
      strategiesPath('checkout', 'staging'),
      strategiesPath('checkout', 'development', 'nope'),
      strategiesPath('checkout', 'development', 'other'),
      strategiesPath('elsewhere', 'development', 'default'),
    ];
    for (const path of tries) {
      await expectRefused(
        server,
        () => listStrategies(),
        () => server.request('POST', path, { ...admin(server), body }),
        404,
        path,
      );
      expect((await server.request('GET', path, admin(server))).status, path).toBe(404);
    }
  });

  it('is refused to Viewers and client tokens (403), without a token (401), and to text bodies (415)', async () => {
    await expectRefused(
      server,
      () => listStrategies(),
      () => post({ name: 'default' }, callers.viewer),
      403,
    );
    await expectRefused(
      server,
      () => listStrategies(),
      () => post('x', callers.viewer, 'checkout', 'text/plain'),
      403,
    );
    await expectRefused(
      server,
      () => listStrategies(),
      () => post({ name: 'default' }, CLIENT_TOKEN),
      403,
    );
    await expectRefused(
      server,
      () => listStrategies(),
      () => server.request('POST', strategiesPath(), { body: { name: 'default' } }),
      401,
    );
    await expectRefused(
      server,
      () => listStrategies(),
      () => post('{"name":"default"}', server.adminToken, 'checkout', 'text/plain'),
      415,
    );
    expect((await server.request('GET', strategiesPath(), { token: CLIENT_TOKEN })).status).toBe(403);
  });
});
