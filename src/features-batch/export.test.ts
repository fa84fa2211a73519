import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCalls, exportFixture } from '../../test/batch.js';
import { CLIENT_TOKEN, callers, eventsOf, server, useFeatureServer } from '../../test/features.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { UNLEASH_EXPORT_PROPERTIES } from '../../test/unleash-export.js';

let fixture: Awaited<ReturnType<typeof exportFixture>>;
useFeatureServer(async () => {
  fixture = await exportFixture(server);
});

const exportWith = (body: unknown, token = server.adminToken) =>
  server.request('POST', '/api/admin/features-batch/export', { token, body });
const names = (res: { body: { features: { name: string }[] } }) => res.body.features.map((f) => f.name);

describe('POST /api/admin/features-batch/export', () => {
  it('exports the features named, in one environment, in the shape of Unleash 8', async () => {
    const res = await exportWith({ environment: 'development', features: ['exp-b', 'exp-a'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      features: [
        {
          name: 'exp-a',
          description: 'A flag',
          type: 'experiment',
          project: 'default',
          stale: false,
          impressionData: true,
          archived: false,
        },
        {
          name: 'exp-b',
          description: null,
          type: 'release',
          project: 'default',
          stale: false,
          impressionData: false,
          archived: false,
        },
      ],
      featureStrategies: [
        {
          name: 'flexibleRollout',
          id: fixture.strategyA.id,
          featureName: 'exp-a',
          title: 'half',
          parameters: { rollout: '50', stickiness: 'default', groupId: 'exp-a' },
          constraints: [
            {
              contextName: 'region',
              operator: 'IN',
              values: ['eu'],
              inverted: false,
              caseInsensitive: false,
            },
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
          disabled: false,
          segments: [fixture.segment.id],
        },
        {
          name: 'default',
          id: fixture.strategyB.id,
          featureName: 'exp-b',
          title: null,
          parameters: {},
          constraints: [],
          variants: [],
          disabled: false,
          segments: [],
        },
      ],
      featureEnvironments: [
        {
          enabled: true,
          featureName: 'exp-a',
          environment: 'development',
          variants: [
            {
              name: 'v1',
              weight: 1000,
              weightType: 'variable',
              stickiness: 'default',
              overrides: [{ contextName: 'userId', values: ['7'] }],
            },
          ],
          name: 'exp-a',
        },
        { enabled: false, featureName: 'exp-b', environment: 'development', variants: [], name: 'exp-b' },
      ],
      // The context fields of the strategies' constraints and of their segments' constraints.
      contextFields: [
        { name: 'userId', description: expect.any(String), stickiness: false, sortOrder: 1, legalValues: [] },
        {
          name: 'region',
          description: null,
          stickiness: true,
          sortOrder: 10,
          legalValues: [{ value: 'eu' }, { value: 'us' }],
        },
      ],
      featureTags: [
        { featureName: 'exp-a', tagType: 'simple', tagValue: 'checkout' },
        { featureName: 'exp-a', tagType: 'team', tagValue: 'core' },
      ],
      segments: [{ id: fixture.segment.id, name: 'beta-users' }],
      tagTypes: [
        { name: 'simple', description: expect.any(String), icon: '#' },
        { name: 'team', description: 'owning team', icon: null },
      ],
      dependencies: [],
      links: [],
    });
    expect((await eventsOf(server, 'type=features-exported'))[0]).toMatchObject({
      createdBy: 'admin',
      environment: 'development',
      data: { environment: 'development', features: ['exp-a', 'exp-b'] },
    });
  });

  it('writes no property that Unleash 8 would refuse on import', async () => {
    const { body } = await exportWith({ environment: 'development', features: ['exp-a', 'exp-b'] });
    const allowed = (list: string, objects: object[]) => {
      for (const o of objects)
        expect(UNLEASH_EXPORT_PROPERTIES[list]).toEqual(expect.arrayContaining(Object.keys(o)));
    };
    allowed('result', [body]);
    for (const list of [
      'features',
      'featureStrategies',
      'featureEnvironments',
      'contextFields',
      'featureTags',
      'segments',
      'tagTypes',
    ]) {
      allowed(list, body[list]);
    }
    allowed(
      'constraints',
      body.featureStrategies.flatMap((s: { constraints: object[] }) => s.constraints),
    );
    allowed(
      'strategyVariants',
      body.featureStrategies.flatMap((s: { variants: object[] }) => s.variants),
    );
    allowed(
      'variants',
      body.featureEnvironments.flatMap((e: { variants: object[] }) => e.variants),
    );
  });

  it('selects by tag value or by project (live features), all live ones for an empty list, archived ones by name', async () => {
    expect(names(await exportWith({ environment: 'development', tag: 'checkout' }))).toEqual([
      'elsewhere',
      'exp-a',
    ]);
    expect(names(await exportWith({ environment: 'development', project: 'other' }))).toEqual(['elsewhere']);
    expect(names(await exportWith({ environment: 'development', features: [] }))).toEqual([
      'elsewhere',
      'exp-a',
      'exp-b',
    ]);
    const archived = await exportWith({ environment: 'production', features: ['arch-x', 'nope'] });
    expect(archived.body.features).toEqual([expect.objectContaining({ name: 'arch-x', archived: true })]);
    expect(archived.body.featureEnvironments).toEqual([
      { enabled: false, featureName: 'arch-x', environment: 'production', variants: [], name: 'arch-x' },
    ]);
    expect(archived.body.featureStrategies).toEqual([]);
  });

  it('offers the answer as a file to save when asked', async () => {
    const res = await exportWith({ environment: 'development', features: ['exp-b'], downloadFile: true });
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(names(res)).toEqual(['exp-b']);
  });

  it('is open to every signed-in user; 404 for an unknown environment or project; 400 without a selection', async () => {
    expect(
      (await exportWith({ environment: 'development', features: ['exp-a'] }, callers.viewer.pat)).status,
    ).toBe(200);
    expect((await exportWith({ environment: 'development', features: ['exp-a'] }, CLIENT_TOKEN)).status).toBe(
      403,
    );
    const anonymous = await server.request('POST', '/api/admin/features-batch/export', {
      body: { environment: 'development', features: [] },
    });
    expect(anonymous.status).toBe(401);
    const text = await server.request('POST', '/api/admin/features-batch/export', {
      token: server.adminToken,
      body: '{}',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    expect((await exportWith({ environment: 'mars', features: ['exp-a'] })).body.name).toBe('NotFoundError');
    expect((await exportWith({ environment: 'development', project: 'nope' })).status).toBe(404);
    for (const body of [
      { environment: 'development' },
      { features: ['exp-a'] },
      { environment: 'development', features: 'exp-a' },
    ]) {
      expect((await exportWith(body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('Flagpole → Flagpole', () => {
  let copy: TestServer;
  beforeAll(async () => {
    copy = await startTestServer();
    await adminCalls(copy)('POST', '/api/admin/segments', { name: 'placeholder', constraints: [] });
    await adminCalls(copy)('POST', '/api/admin/segments', {
      name: 'beta-users',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'] }],
    });
  });
  afterAll(() => copy.close());

  it('an export imports into another instance, which exports the same features (its own ids)', async () => {
    const exported = (await exportWith({ environment: 'development', project: 'default' })).body;
    const imported = await copy.request('POST', '/api/admin/features-batch/import', {
      token: copy.adminToken,
      body: { project: 'default', environment: 'development', data: exported },
    });
    expect(imported.status, imported.text).toBe(200);
    const again = (
      await copy.request('POST', '/api/admin/features-batch/export', {
        token: copy.adminToken,
        body: { environment: 'development', project: 'default' },
      })
    ).body;
    const withoutIds = (x: any) => ({
      ...x,
      featureStrategies: x.featureStrategies.map(({ id: _id, segments, ...s }: any) => ({
        ...s,
        segments: segments.length,
      })),
      segments: x.segments.map((s: { name: string }) => s.name),
    });
    expect(withoutIds(again)).toEqual(withoutIds(exported));
    expect(again.segments).toEqual([{ id: 2, name: 'beta-users' }]);
  });
});
