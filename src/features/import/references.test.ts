import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/server.js';
import type { Actor } from '../../http/identity.js';
import { type FeatureWrites, writeFeatures } from './service.js';

let server: TestServer;
const actor = { name: 'import', userId: null } as unknown as Actor;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function feature(name: string) {
  return {
    name,
    project: 'default',
    description: null,
    type: 'release',
    stale: false,
    impressionData: false,
    archivedAt: null,
    createdAt: null,
  };
}

function writes(name: string, rest: Partial<FeatureWrites>): FeatureWrites {
  return {
    features: [feature(name)],
    environments: [],
    strategies: [],
    strategySegments: new Map(),
    tags: [],
    ...rest,
  };
}

function strategy(name: string, id: string) {
  return {
    id,
    featureName: name,
    environment: 'development',
    name: 'default',
    title: null,
    disabled: false,
    parameters: {},
    constraints: [],
    variants: [],
    sortOrder: 0,
  };
}

async function exists(name: string): Promise<boolean> {
  const { rows } = await server.ctx.db.query('SELECT 1 FROM features WHERE name = $1', [name]);
  return rows.length > 0;
}

// An import's rows are written with the embedded database's per-row foreign-key checks off and
// checked together afterwards (the importer's plan refuses such documents before: these writes
// bypass it, as a fault of the plan would).
describe("an import's writes that refer to nothing", () => {
  it.each([
    [
      'a segment',
      (n: string) =>
        writes(n, { strategies: [strategy(n, `${n}-s`)], strategySegments: new Map([[`${n}-s`, [9999]]]) }),
    ],
    [
      'an environment',
      (n: string) =>
        writes(n, {
          environments: [{ featureName: n, environment: 'nowhere', enabled: true, variants: [] }],
        }),
    ],
    [
      'a strategy type',
      (n: string) => writes(n, { strategies: [{ ...strategy(n, `${n}-s`), name: 'noSuchStrategy' }] }),
    ],
    ['a tag', (n: string) => writes(n, { tags: [{ featureName: n, type: 'simple', value: 'never-made' }] })],
    [
      'a feature',
      (n: string) => ({
        ...writes(n, {}),
        features: [],
        environments: [{ featureName: n, environment: 'development', enabled: true, variants: [] }],
      }),
    ],
    ['a project', (n: string) => writes(n, { features: [{ ...feature(n), project: 'no-such-project' }] })],
    ['a strategy', (n: string) => writes(n, { strategySegments: new Map([[`${n}-none`, []]]) })],
    [
      'a parent',
      (n: string) =>
        writes(n, { dependencies: [{ child: n, feature: `${n}-parent`, enabled: true, variants: [] }] }),
    ],
  ])('are refused whole when one refers to %s', async (_what, make) => {
    const name = `dangling-${Math.random().toString(36).slice(2, 8)}`;
    await expect(server.ctx.db.transaction((tx) => writeFeatures(tx, make(name), actor))).rejects.toThrow();
    expect(await exists(name)).toBe(false);
  });

  it('leave the checks on for the rest of the transaction', async () => {
    const name = 'checked-after';
    const write = server.ctx.db.transaction(async (tx) => {
      await writeFeatures(tx, writes(name, {}), actor);
      await tx.query("INSERT INTO feature_environments (feature_name, environment) VALUES ($1, 'nowhere')", [
        name,
      ]);
    });
    await expect(write).rejects.toThrow(/foreign key/);
    expect(await exists(name)).toBe(false);
  });

  it('are written when every reference holds', async () => {
    const name = 'all-there';
    await server.ctx.db.transaction((tx) =>
      writeFeatures(
        tx,
        writes(name, {
          environments: [{ featureName: name, environment: 'development', enabled: true, variants: [] }],
          strategies: [strategy(name, `${name}-s`)],
        }),
        actor,
      ),
    );
    expect(await exists(name)).toBe(true);
  });
});
