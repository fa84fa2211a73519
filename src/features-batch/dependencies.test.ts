import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { asAdmin } from '../../test/requests.js';
import {
  countEvents,
  createProject,
  lastEvent,
  startTestServer,
  type TestServer,
} from '../../test/server.js';

let server: TestServer;

const dependenciesOf = async (name: string) =>
  (await asAdmin(server, 'GET', `/api/admin/projects/default/features/${name}`)).body.dependencies;
const file = (dependencies: unknown[], features = ['imp-parent', 'imp-child']) => ({
  features: features.map((name) => ({ name, project: 'elsewhere' })),
  featureStrategies: [],
  featureEnvironments: [],
  contextFields: [],
  featureTags: [],
  segments: [],
  tagTypes: [],
  dependencies,
  links: [],
});
const importFile = (data: unknown, path = 'import') =>
  asAdmin(server, 'POST', `/api/admin/features-batch/${path}`, {
    project: 'default',
    environment: 'development',
    data,
  });

beforeAll(async () => {
  server = await startTestServer();
  const f = flags(server);
  await f.create('parent');
  await f.create('child');
  await f.addDependency('child', { feature: 'parent', variants: ['blue'] });
  await createProject(server, 'other');
  await flags(server, 'other').create('foreign');
});
afterAll(() => server.close());

describe("dependencies in Unleash's export and import", () => {
  it('exports the parent of each exported feature that has one', async () => {
    const res = await asAdmin(server, 'POST', '/api/admin/features-batch/export', {
      features: ['child', 'parent'],
      environment: 'development',
    });
    expect(res.status).toBe(200);
    expect(res.body.dependencies).toEqual([
      { feature: 'child', dependencies: [{ feature: 'parent', enabled: true, variants: ['blue'] }] },
    ]);
  });

  it('imports them (feature-dependency-added); the same file again changes nothing', async () => {
    const data = file([{ feature: 'imp-child', dependencies: [{ feature: 'imp-parent', enabled: false }] }]);
    expect((await importFile(data, 'validate')).body).toEqual({ errors: [], warnings: [], permissions: [] });
    const res = await importFile(data);
    expect(res.status, res.text).toBe(200);
    expect(await dependenciesOf('imp-child')).toEqual([
      { feature: 'imp-parent', enabled: false, variants: [] },
    ]);
    expect(await lastEvent(server, 'feature-dependency-added')).toMatchObject({
      featureName: 'imp-child',
      data: { feature: 'imp-parent', enabled: false },
    });
    const added = await countEvents(server, 'feature-dependency-added');
    expect((await importFile(data)).status).toBe(200);
    expect(await countEvents(server, 'feature-dependency-added')).toBe(added);
  });

  it('a parent that is live in the project already will do; a file without the dependency removes it', async () => {
    const res = await importFile(
      file([{ feature: 'imp-child', dependencies: [{ feature: 'parent' }] }], ['imp-child']),
    );
    expect(res.status, res.text).toBe(200);
    expect(await dependenciesOf('imp-child')).toEqual([{ feature: 'parent', enabled: true, variants: [] }]);
    expect((await importFile(file([], ['imp-child']))).status).toBe(200);
    expect(await dependenciesOf('imp-child')).toEqual([]);
    expect(await lastEvent(server, 'feature-dependencies-removed')).toMatchObject({
      featureName: 'imp-child',
    });
  });

  it('refuses what adding them by hand refuses, listing each', async () => {
    const cases: [unknown[], string[], string][] = [
      [
        [{ feature: 'imp-child', dependencies: [{ feature: 'nowhere' }] }],
        ['imp-child'],
        'imp-child -> nowhere',
      ],
      [
        [{ feature: 'imp-child', dependencies: [{ feature: 'foreign' }] }],
        ['imp-child'],
        'imp-child -> foreign',
      ],
      [[{ feature: 'imp-child', dependencies: [{ feature: 'child' }] }], ['imp-child'], 'imp-child -> child'],
      [
        [{ feature: 'parent', dependencies: [{ feature: 'imp-child' }] }],
        ['parent', 'imp-child'],
        'parent -> imp-child',
      ],
      [[{ feature: 'imp-child', dependencies: [{ feature: 'imp-child' }] }], ['imp-child'], 'imp-child'],
      [
        [{ feature: 'imp-child', dependencies: [{ feature: 'parent' }, { feature: 'imp-parent' }] }],
        ['imp-child'],
        'imp-child',
      ],
      [[{ feature: 'imp-child', dependencies: [{ feature: 'parent' }] }], ['imp-parent'], 'imp-child'],
    ];
    for (const [dependencies, features, item] of cases) {
      const data = file(dependencies, features);
      const validated = await importFile(data, 'validate');
      expect(
        validated.body.errors.flatMap((e: { affectedItems: string[] }) => e.affectedItems),
        JSON.stringify(dependencies),
      ).toContain(item);
      const events = await countEvents(server);
      expect((await importFile(data)).status).toBe(400);
      expect(await countEvents(server)).toBe(events);
    }
    expect(await dependenciesOf('child')).toEqual([{ feature: 'parent', enabled: true, variants: ['blue'] }]);
  });
});
