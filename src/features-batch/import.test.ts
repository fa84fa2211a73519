import { describe, expect, it } from 'vitest';
import { adminCalls } from '../../test/batch.js';
import { CLIENT_TOKEN, eventsOf, server, useFeatureServer } from '../../test/features.js';
import { admin } from '../../test/requests.js';
import { countEvents } from '../../test/server.js';
import { unleashExport } from '../../test/unleash-export.js';

let segmentId: number;
useFeatureServer(async () => {
  // The data names its segment by the id it had where it was exported (41): here it is matched by name.
  await adminCalls(server)('POST', '/api/admin/segments', { name: 'placeholder', constraints: [] });
  segmentId = (
    await adminCalls(server)('POST', '/api/admin/segments', { name: 'beta-users', constraints: [] })
  ).id;
});

const importInto = (data: unknown, environment = 'development', project = 'default') =>
  server.request('POST', '/api/admin/features-batch/import', {
    ...admin(server),
    body: { project, environment, data },
  });
const feature = async (name: string) =>
  (await server.request('GET', `/api/admin/projects/default/features/${name}`, admin(server))).body;
const environmentOf = async (name: string, environment: string) =>
  (await feature(name)).environments.find((e: { name: string }) => e.name === environment);
const tagsOf = async (name: string) =>
  (await server.request('GET', `/api/admin/features/${name}/tags`, admin(server))).body.tags
    .map((t: { type: string; value: string }) => `${t.type}:${t.value}`)
    .sort();

describe('POST /api/admin/features-batch/import', () => {
  it('imports a file exported by Unleash 8 into a project and environment: 200 without a body', async () => {
    const res = await importInto(unleashExport());
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');

    expect(await feature('exp-a')).toMatchObject({
      project: 'default',
      description: 'A flag',
      type: 'experiment',
      impressionData: true,
    });
    const development = await environmentOf('exp-a', 'development');
    expect(development).toMatchObject({
      enabled: true,
      variants: [
        {
          name: 'v1',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'default',
          overrides: [{ contextName: 'userId', values: ['7'] }],
        },
      ],
    });
    expect(development.strategies).toEqual([
      {
        id: expect.any(String),
        name: 'flexibleRollout',
        title: 'half',
        disabled: false,
        featureName: 'exp-a',
        parameters: { groupId: 'exp-a', rollout: '50', stickiness: 'default' },
        constraints: [
          { contextName: 'region', operator: 'IN', values: ['eu'], inverted: false, caseInsensitive: false },
        ],
        variants: [
          {
            name: 'blue',
            weight: 1000,
            weightType: 'variable',
            stickiness: 'default',
            payload: { type: 'string', value: 'b' },
          },
        ],
        segments: [segmentId],
        sortOrder: 0,
      },
    ]);
    expect(development.strategies[0].id).not.toBe('01J0000000000000000000000A');
    expect(await environmentOf('exp-a', 'production')).toMatchObject({
      enabled: false,
      strategies: [],
      variants: [],
    });
    expect(await environmentOf('exp-b', 'development')).toMatchObject({
      enabled: false,
      strategies: [{ name: 'default' }],
    });
    expect(await tagsOf('exp-a')).toEqual(['simple:checkout', 'team:core']);
    const region = await server.request('GET', '/api/admin/context/region', admin(server));
    expect(region.body).toMatchObject({ stickiness: true, legalValues: [{ value: 'eu' }, { value: 'us' }] });
    expect((await server.request('GET', '/api/admin/tag-types/team', admin(server))).status).toBe(200);

    const sdk = await server.request('GET', '/api/client/features', { token: CLIENT_TOKEN });
    expect(sdk.body.features.find((f: { name: string }) => f.name === 'exp-a')).toMatchObject({
      enabled: true,
      strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50' } }],
    });

    const types = (await eventsOf(server, 'limit=30')).map(
      (e) => `${e.type}${e.featureName ? `:${e.featureName}` : ''}`,
    );
    expect(types).toEqual(
      expect.arrayContaining([
        'features-imported',
        'context-field-created',
        'tag-type-created',
        'tag-created',
        'feature-created:exp-a',
        'feature-created:exp-b',
        'feature-strategy-add:exp-a',
        'feature-strategy-add:exp-b',
        'feature-environment-enabled:exp-a',
        'feature-environment-variants-updated:exp-a',
        'feature-tagged:exp-a',
      ]),
    );
    expect((await eventsOf(server, 'type=features-imported'))[0]).toMatchObject({
      project: 'default',
      environment: 'development',
      createdBy: 'admin',
      data: { features: ['exp-a', 'exp-b'] },
    });
  });

  it('importing the same file again changes nothing; it only records that it was imported', async () => {
    const events = await countEvents(server);
    const before = [await feature('exp-a'), await feature('exp-b')];
    expect((await importInto(unleashExport())).status).toBe(200);
    expect([await feature('exp-a'), await feature('exp-b')]).toEqual(before);
    expect(await countEvents(server)).toBe(events + 1);
  });

  it('overwrites what differs: metadata, the strategies of that environment, its state and variants, the tags', async () => {
    await adminCalls(server)(
      'POST',
      '/api/admin/projects/default/features/exp-a/environments/production/strategies',
      { name: 'default' },
    );
    const [oldStrategy] = (await environmentOf('exp-a', 'development')).strategies;
    const data = unleashExport();
    data.features[0]!.description = 'Changed';
    data.featureStrategies[0]!.parameters.rollout = '75';
    data.featureEnvironments[0]!.enabled = false;
    data.featureEnvironments[0]!.variants = [];
    data.featureTags = [{ featureName: 'exp-a', tagType: 'simple', tagValue: 'checkout' }];
    expect((await importInto(data)).status).toBe(200);

    expect((await feature('exp-a')).description).toBe('Changed');
    const development = await environmentOf('exp-a', 'development');
    expect(development).toMatchObject({ enabled: false, variants: [] });
    expect(development.strategies).toMatchObject([
      { name: 'flexibleRollout', parameters: { rollout: '75' }, segments: [segmentId] },
    ]);
    expect(development.strategies[0].id).not.toBe(oldStrategy.id);
    // Other environments are not the import's.
    expect((await environmentOf('exp-a', 'production')).strategies).toMatchObject([{ name: 'default' }]);
    expect(await tagsOf('exp-a')).toEqual(['simple:checkout']);

    const events = await eventsOf(server, 'feature=exp-a&limit=10');
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'feature-metadata-updated',
        'feature-strategy-remove',
        'feature-strategy-add',
        'feature-environment-disabled',
        'feature-environment-variants-updated',
        'feature-untagged',
      ]),
    );
    expect(events.find((e) => e.type === 'feature-strategy-remove')).toMatchObject({
      environment: 'development',
      preData: { id: oldStrategy.id },
    });
    expect(events.find((e) => e.type === 'feature-untagged')).toMatchObject({
      preData: { type: 'team', value: 'core' },
    });
    const sdk = await server.request('GET', '/api/client/features', { token: CLIENT_TOKEN });
    expect(sdk.body.features.find((f: { name: string }) => f.name === 'exp-a')).toMatchObject({
      enabled: false,
      description: 'Changed',
    });
  });

  it('switched on without any strategy, a feature gets the one `on` adds; archived in the file, it is archived', async () => {
    const data = {
      features: [{ name: 'bare-on' }, { name: 'born-archived', archived: true }],
      featureStrategies: [],
      featureEnvironments: [{ name: 'bare-on', enabled: true }],
      tagTypes: [],
    };
    expect((await importInto(data)).status).toBe(200);
    expect(await environmentOf('bare-on', 'development')).toMatchObject({
      enabled: true,
      strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100', groupId: 'bare-on' } }],
    });
    expect(
      (await server.request('GET', '/api/admin/projects/default/features/born-archived', admin(server)))
        .status,
    ).toBe(404);
    const archive = await server.request('GET', '/api/admin/archive/features/default', admin(server));
    expect(archive.body.features.map((f: { name: string }) => f.name)).toContain('born-archived');
    expect((await eventsOf(server, 'type=feature-archived'))[0]).toMatchObject({
      featureName: 'born-archived',
    });
  });
});
