import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import {
  createFeature,
  isPostgres,
  type Replica,
  startReplica,
  startTestServer,
  type TestServer,
} from '../../test/server.js';

// A change of definitions (a project's settings or a new project, a context field, a strategy
// type, a feature or tag type, a tag) reloads those definitions, not every feature: with 10,000 flags, renaming a project
// reloaded them all (0.85–0.9 s an answer on the embedded database).

describe('a change of definitions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await createFeature(server, 'kept');
  });
  afterAll(() => server?.close());

  it('is taken in by the model without reloading the features', async () => {
    const before = server.ctx.model.feature('kept');
    expect(before).toBeDefined();
    const changes = [
      server.request('PUT', '/api/admin/projects/default', {
        ...admin(server),
        body: { name: 'Renamed', description: 'after', defaultStickiness: 'userId' },
      }),
      server.request('POST', '/api/admin/context', {
        ...admin(server),
        body: { name: 'tier', legalValues: [{ value: 'gold' }] },
      }),
      server.request('POST', '/api/admin/strategies', {
        ...admin(server),
        body: { name: 'byTier', parameters: [{ name: 'tiers', type: 'list', required: true }] },
      }),
      server.request('PUT', '/api/admin/feature-types/release/lifetime', {
        ...admin(server),
        body: { lifetimeDays: 12 },
      }),
      server.request('POST', '/api/admin/tag-types', { ...admin(server), body: { name: 'owner' } }),
      server.request('POST', '/api/admin/tags', {
        ...admin(server),
        body: { type: 'simple', value: 'loose' },
      }),
      server.request('POST', '/api/admin/projects', {
        ...admin(server),
        body: { id: 'fresh', name: 'Fresh' },
      }),
    ];
    for (const res of await Promise.all(changes)) expect(res.status, res.text).toBeLessThan(300);
    await server.ctx.sync.settled();

    expect(server.ctx.model.feature('kept')).toBe(before);
    expect(server.ctx.model.project('default')).toMatchObject({
      name: 'Renamed',
      defaultStickiness: 'userId',
    });
    expect(server.ctx.model.contextFields().map((f) => f.name)).toContain('tier');
    expect(server.ctx.model.strategyDefinition('byTier')?.parameters).toHaveLength(1);
    expect(server.ctx.model.project('fresh')?.environments).toEqual(
      server.ctx.model.project('default')?.environments,
    );
    const project = await server.request('GET', '/api/admin/projects/default', admin(server));
    expect(project.body).toMatchObject({ name: 'Renamed', defaultStickiness: 'userId' });
  });

  it('made with features in one transaction reloads those features too', async () => {
    const res = await server.request('POST', '/api/admin/features-batch/import', {
      ...admin(server),
      body: {
        project: 'default',
        environment: 'development',
        data: {
          features: [{ name: 'imported', project: 'default', type: 'release' }],
          featureStrategies: [],
          featureEnvironments: [{ featureName: 'imported', environment: 'development', enabled: true }],
          featureTags: [{ featureName: 'imported', tagType: 'team', tagValue: 'core' }],
          tagTypes: [{ name: 'team', description: 'Who owns it' }],
          contextFields: [],
          segments: [],
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    await server.ctx.sync.settled();
    expect(server.ctx.model.feature('imported')?.tags).toEqual([{ type: 'team', value: 'core' }]);
  });
});

describe('a state import', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await createFeature(server, 'kept');
    // `elsewhere` has a feature and no `qa` environment: an import that puts a feature of its in
    // `qa` links `qa` to it, and so attaches its other feature there too, without naming it.
    for (const [method, url, body] of [
      ['POST', '/api/admin/environments', { name: 'qa', type: 'test' }],
      ['POST', '/api/admin/projects', { id: 'elsewhere', name: 'Elsewhere' }],
      ['DELETE', '/api/admin/projects/elsewhere/environments/qa', undefined],
      ['POST', '/api/admin/projects/elsewhere/features', { name: 'bystander' }],
    ] as const) {
      const res = await server.request(method, url, { ...admin(server), body });
      expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
    }
    await server.ctx.sync.settled();
    expect(server.ctx.model.feature('bystander')?.environments.map((e) => e.name)).not.toContain('qa');
  });
  afterAll(() => server?.close());

  // With ~12,000 flags on the instance, a 1,000-feature import answered in 1.4 s, most of it
  // reloading every feature; its definitions, features and segments are now reloaded alone.
  it('reloads what it names and what it attaches, not every feature', async () => {
    const before = server.ctx.model.feature('kept');
    expect(before).toBeDefined();
    const res = await server.request('POST', '/api/admin/state/import', {
      ...admin(server),
      body: {
        version: 1,
        projects: [{ id: 'imported', name: 'Imported' }],
        tagTypes: [{ name: 'squad', description: 'Who owns it' }],
        strategies: [{ name: 'byRegion', parameters: [{ name: 'regions', type: 'list' }] }],
        segments: [{ id: 50, name: 'beta', constraints: [] }],
        features: [
          { name: 'arrived', project: 'imported' },
          { name: 'moved-in', project: 'elsewhere' },
        ],
        featureEnvironments: [{ featureName: 'moved-in', environment: 'qa', enabled: false }],
        featureStrategies: [
          {
            id: 'arrived-dev',
            featureName: 'arrived',
            environment: 'development',
            name: 'byRegion',
            parameters: { regions: 'eu' },
            segments: [50],
          },
        ],
        featureTags: [{ featureName: 'arrived', tagType: 'squad', tagValue: 'core' }],
      },
    });
    expect(res.status, res.text).toBe(202);
    await server.ctx.sync.settled();

    expect(server.ctx.model.feature('kept')).toBe(before);
    expect(server.ctx.model.project('imported')).toBeDefined();
    expect(server.ctx.model.project('elsewhere')?.environments).toContain('qa');
    expect(server.ctx.model.strategyDefinition('byRegion')).toBeDefined();
    expect(server.ctx.model.segment(50)?.name).toBe('beta');
    expect(server.ctx.model.feature('arrived')).toMatchObject({
      project: 'imported',
      tags: [{ type: 'squad', value: 'core' }],
      strategies: [{ id: 'arrived-dev', name: 'byRegion', segments: [50] }],
    });
    expect(server.ctx.model.feature('bystander')?.environments.map((e) => e.name)).toContain('qa');
    const sdk = await server.request(
      'GET',
      '/api/admin/projects/elsewhere/features/bystander',
      admin(server),
    );
    expect(sdk.body.environments.map((e: { name: string }) => e.name)).toContain('qa');
  });
});

describe.runIf(isPostgres())('a change of definitions made by another process', () => {
  let server: TestServer;
  let replica: Replica;
  beforeAll(async () => {
    server = await startTestServer();
    await createFeature(server, 'kept');
    replica = await startReplica(server);
  });
  afterAll(async () => {
    await replica?.close();
    await server?.close();
  });

  it('reaches its model without reloading the features', async () => {
    const before = replica.ctx.model.feature('kept');
    expect(before).toBeDefined();
    const res = await server.request('PUT', '/api/admin/projects/default', {
      ...admin(server),
      body: { name: 'Renamed elsewhere' },
    });
    expect(res.status, res.text).toBe(200);
    await expect
      .poll(() => replica.ctx.model.project('default')?.name, { timeout: 2000 })
      .toBe('Renamed elsewhere');
    expect(replica.ctx.model.feature('kept')).toBe(before);
  });
});
