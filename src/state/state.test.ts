import { describe, expect, it } from 'vitest';
import {
  CLIENT_TOKEN,
  callers,
  eventsOf,
  exportState,
  server,
  useFeatureServer,
} from '../../test/features.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser } from '../../test/server.js';

useFeatureServer();

const importState = (body: unknown, query = '', token = server.adminToken) =>
  server.request('POST', `/api/admin/state/import${query}`, { token, body });
const feature = (name: string, project = 'default') =>
  server.request('GET', `/api/admin/projects/${project}/features/${name}`, admin(server));

/** A small configuration written by hand in the shape of the state format. */
const DOCUMENT = {
  version: 4,
  environments: [{ name: 'staging', type: 'test', enabled: true, sortOrder: 150 }],
  projects: [
    { id: 'shop', name: 'Shop', description: 'The web shop', environments: ['development', 'staging'] },
  ],
  tagTypes: [{ name: 'team', description: 'Owning team', icon: 'group' }],
  tags: [{ type: 'team', value: 'payments' }],
  segments: [
    {
      id: 7,
      name: 'employees',
      constraints: [{ contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] }],
    },
  ],
  features: [
    {
      name: 'checkout-v2',
      project: 'shop',
      description: 'New checkout',
      type: 'experiment',
      impressionData: true,
    },
    { name: 'dark-mode', description: '' },
  ],
  featureEnvironments: [
    {
      featureName: 'checkout-v2',
      environment: 'staging',
      enabled: true,
      variants: [
        { name: 'b', weight: 1, weightType: 'variable', stickiness: 'userId' },
        { name: 'a', weight: 1, weightType: 'variable' },
      ],
    },
    { featureName: 'checkout-v2', name: 'development', enabled: true },
    { featureName: 'dark-mode', environment: 'development', enabled: true },
  ],
  featureStrategies: [
    {
      id: 'checkout-staging',
      featureName: 'checkout-v2',
      environment: 'staging',
      strategyName: 'flexibleRollout',
      parameters: { rollout: 25 },
      constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE'] }],
      segments: [7],
    },
  ],
  featureTags: [
    { featureName: 'checkout-v2', tagType: 'team', tagValue: 'payments' },
    { featureName: 'checkout-v2', tagValue: 'web' },
  ],
};

describe('GET /api/admin/state/export', () => {
  it('exports a new instance: its seed, version 4', async () => {
    const state = await exportState();
    expect(state).toMatchObject({
      version: 4,
      features: [],
      featureEnvironments: [],
      featureStrategies: [],
      segments: [],
      featureStrategySegments: [],
      tags: [],
      featureTags: [],
      tagTypes: [{ name: 'simple', description: expect.any(String), icon: '#' }],
      projects: [
        { id: 'default', name: 'Default', mode: 'open', environments: ['development', 'production'] },
      ],
      environments: [
        { name: 'development', type: 'development', enabled: true, protected: false, sortOrder: 100 },
        { name: 'production', type: 'production', enabled: true, protected: false, sortOrder: 200 },
      ],
    });
    expect(state.strategies.map((s: { name: string }) => s.name).sort()).toEqual([
      'applicationHostname',
      'default',
      'flexibleRollout',
      'remoteAddress',
      'userWithId',
    ]);
  });

  it('is for Admins only', async () => {
    const editor = await createUser(server, 2);
    for (const token of [editor.pat, callers.viewer.pat, CLIENT_TOKEN]) {
      const res = await server.request('GET', '/api/admin/state/export', { token });
      expect(res.status).toBe(403);
      expect(res.body.name).toBe('NoAccessError');
    }
    expect((await server.request('GET', '/api/admin/state/export')).status).toBe(401);
  });
});

describe('E5 POST /api/admin/state/import', () => {
  it('imports a hand-written state: 202 without a body, read back everywhere, one event per item', async () => {
    const res = await importState(DOCUMENT);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');

    const checkout = await feature('checkout-v2', 'shop');
    expect(checkout.status).toBe(200);
    expect(checkout.body).toMatchObject({
      project: 'shop',
      description: 'New checkout',
      type: 'experiment',
      impressionData: true,
      stale: false,
    });
    expect(
      checkout.body.environments.map((e: { name: string; enabled: boolean }) => [e.name, e.enabled]),
    ).toEqual([
      ['development', true],
      ['staging', true],
    ]);
    const staging = checkout.body.environments[1];
    expect(staging.strategies).toEqual([
      {
        id: 'checkout-staging',
        name: 'flexibleRollout',
        title: null,
        disabled: false,
        featureName: 'checkout-v2',
        parameters: { rollout: '25', stickiness: 'default', groupId: 'checkout-v2' },
        constraints: [
          {
            contextName: 'country',
            operator: 'IN',
            values: ['NO', 'SE'],
            inverted: false,
            caseInsensitive: false,
          },
        ],
        variants: [],
        segments: [7],
        sortOrder: 0,
      },
    ]);
    expect(staging.variants).toEqual([
      { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' },
      { name: 'b', weight: 500, weightType: 'variable', stickiness: 'userId' },
    ]);
    // Switched on without a strategy: the one `on` adds.
    expect(checkout.body.environments[0].strategies).toMatchObject([
      {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: 'checkout-v2' },
      },
    ]);
    const darkMode = await feature('dark-mode');
    expect(darkMode.body).toMatchObject({ project: 'default', description: null, type: 'release' });
    expect(darkMode.body.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([true, false]);

    const tags = await server.request('GET', '/api/admin/features/checkout-v2/tags', admin(server));
    expect(tags.body).toEqual({
      version: 1,
      tags: [
        { type: 'simple', value: 'web' },
        { type: 'team', value: 'payments' },
      ],
    });
    const segment = await server.request('GET', '/api/admin/segments/7', admin(server));
    expect(segment.body).toMatchObject({ id: 7, name: 'employees', project: null });
    const made = await server.request('POST', '/api/admin/segments', {
      ...admin(server),
      body: { name: 'later', constraints: [] },
    });
    expect(made.body.id).toBeGreaterThan(7);
    const environments = await server.request('GET', '/api/admin/environments', admin(server));
    expect(environments.body.environments.map((e: { name: string }) => e.name)).toEqual([
      'development',
      'staging',
      'production',
    ]);

    // The SDKs are served the imported flags at once.
    const sdk = await server.request('GET', '/api/client/features', { token: CLIENT_TOKEN });
    expect(sdk.body.features.find((f: { name: string }) => f.name === 'dark-mode')).toMatchObject({
      enabled: true,
      project: 'default',
    });
    expect(sdk.body.features.find((f: { name: string }) => f.name === 'checkout-v2')).toMatchObject({
      enabled: true,
      project: 'shop',
    });

    const types = (await eventsOf(server, 'limit=100')).map((e) => e.type);
    for (const type of [
      'environment-import',
      'project-import',
      'tag-type-import',
      'tag-import',
      'segment-import',
      'feature-tag-import',
    ]) {
      expect(types, type).toContain(type);
    }
    const imported = await eventsOf(server, 'type=feature-import');
    expect(imported.map((e) => e.featureName).sort()).toEqual(['checkout-v2', 'dark-mode']);
    expect(imported.find((e) => e.featureName === 'checkout-v2')).toMatchObject({
      project: 'shop',
      createdBy: 'admin',
      preData: null,
    });
  });

  it('keep (the default) leaves existing items alone: the same state twice is the same as once', async () => {
    const before = await exportState();
    const events = await countEvents(server);
    const changed = structuredClone(DOCUMENT);
    changed.features[1]!.description = 'Changed';
    expect((await importState(DOCUMENT)).status).toBe(202);
    expect((await importState(changed)).status).toBe(202);
    expect(await exportState()).toEqual(before);
    expect(await countEvents(server)).toBe(events);
  });

  it('keep=false overwrites what differs, with one event per feature changed, and nothing else', async () => {
    const changed = structuredClone(DOCUMENT);
    changed.features[1]!.description = 'Changed';
    changed.featureEnvironments[2]!.enabled = false;
    const events = await countEvents(server);
    expect((await importState(changed, '?keep=false')).status).toBe(202);
    expect((await feature('dark-mode')).body).toMatchObject({ description: 'Changed' });
    expect((await feature('dark-mode')).body.environments[0].enabled).toBe(false);
    expect(await countEvents(server)).toBe(events + 1);
    expect((await eventsOf(server, 'type=feature-import'))[0]).toMatchObject({
      featureName: 'dark-mode',
      data: { description: 'Changed' },
      preData: { description: null },
    });
  });

  it('drop=true replaces everything: what the document does not list is gone', async () => {
    await server.request('POST', '/api/admin/projects', {
      ...admin(server),
      body: { id: 'legacy', name: 'Legacy' },
    });
    await server.request('POST', '/api/admin/projects/legacy/features', {
      ...admin(server),
      body: { name: 'old-flag' },
    });
    const legacyToken = await server.request('POST', '/api/admin/projects/legacy/api-tokens', {
      ...admin(server),
      body: { tokenName: 'legacy-sdk', type: 'client' },
    });
    expect(legacyToken.status, legacyToken.text).toBe(201);
    const document = { version: 4, features: [{ name: 'only-one' }] };
    expect((await importState(document, '?drop=true')).status).toBe(202);
    const state = await exportState();
    expect(state.features.map((f: { name: string }) => f.name)).toEqual(['only-one']);
    expect(state.projects.map((p: { id: string }) => p.id)).toEqual(['default']);
    expect(state.segments).toEqual([]);
    expect(state.tags).toEqual([]);
    expect((await eventsOf(server, 'type=drop-features'))[0].data.features).toEqual([
      'checkout-v2',
      'dark-mode',
      'old-flag',
    ]);
    expect((await eventsOf(server, 'type=drop-projects'))[0].data.projects).toEqual(['legacy', 'shop']);
    expect((await feature('old-flag', 'legacy')).status).toBe(404);
    const sdk = await server.request('GET', '/api/client/features', { token: CLIENT_TOKEN });
    expect(sdk.body.features.map((f: { name: string }) => f.name)).toEqual(['only-one']);
    // The dropped project's token went with it.
    const stale = await server.request('GET', '/api/client/features', { token: legacyToken.body.secret });
    expect(stale.status).toBe(401);
    expect((await eventsOf(server, 'type=api-token-deleted'))[0].preData).toMatchObject({
      id: legacyToken.body.id,
      projects: ['legacy'],
    });
  });
});
