import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { admin } from '../../test/requests.js';
import { createFeature, isPostgres, startTestServer, type TestServer } from '../../test/server.js';
import { loadFeatureRecords } from './store.js';

const FEATURES = '/api/admin/projects/default/features';

describe('changes the writer knows, taken by the model without a read', () => {
  let server: TestServer;
  let strategyId: string;
  beforeAll(async () => {
    server = await startTestServer();
    await createFeature(server, 'known');
    const added = await server.request('POST', `${FEATURES}/known/environments/development/strategies`, {
      ...admin(server),
      body: {
        name: 'flexibleRollout',
        parameters: { stickiness: 'default', rollout: '10', groupId: 'known' },
        constraints: [{ values: ['a', 'b'], operator: 'IN', contextName: 'userId', caseInsensitive: false }],
        variants: [{ weightType: 'variable', weight: 1000, name: 'blue', stickiness: 'default' }],
      },
    });
    expect(added.status, added.text).toBe(200);
    strategyId = added.body.id;
  });
  afterAll(() => server?.close());

  /** The model's copy, serialized, against the feature read from the database now. */
  async function expectModelAsStored(name: string) {
    const [stored] = await loadFeatureRecords(server.ctx.db, [name]);
    expect(JSON.stringify(server.ctx.model.feature(name))).toBe(JSON.stringify(stored));
  }

  it('holds what concurrent metadata and strategy changes wrote, as a reload would read it, without reading', async () => {
    const reads = vi.spyOn(server.ctx.db, 'transaction');
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          n % 2 === 0
            ? server.request('PATCH', `${FEATURES}/known`, {
                ...admin(server),
                body: [
                  { op: 'replace', path: '/description', value: `d${n}` },
                  { op: 'replace', path: '/impressionData', value: n % 4 === 0 },
                ],
              })
            : server.request('PUT', `${FEATURES}/known/environments/development/strategies/${strategyId}`, {
                ...admin(server),
                body: {
                  name: 'flexibleRollout',
                  parameters: { stickiness: 'default', rollout: String(n), groupId: 'known' },
                  constraints: [{ values: [`u${n}`], operator: 'IN', contextName: 'userId' }],
                },
              }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
      // The changes' own transactions, and none for the caches to read them back — on PostgreSQL
      // a notification or the poll may hear of a commit before the commit's own listener does, and
      // read it back (which the next check covers too).
      const readOnly = reads.mock.calls.filter(([, options]) => options?.readOnly);
      if (!isPostgres()) expect(readOnly).toHaveLength(0);
    } finally {
      reads.mockRestore();
    }
    await expectModelAsStored('known');
    const feature = await server.request('GET', `${FEATURES}/known`, admin(server));
    const [strategy] = feature.body.environments.find(
      (e: { name: string }) => e.name === 'development',
    ).strategies;
    // One of the changes was last (which one depends on the order they reached the database).
    const n = Number(strategy.parameters.rollout);
    expect(n % 2).toBe(1);
    expect(strategy.constraints[0].values).toEqual([`u${n}`]);
    expect(feature.body.description).toMatch(/^d(0|2|4|6|8|10)$/);
  });

  it('reads back what its writer did not describe (a strategy switched off, with the environment)', async () => {
    const off = await server.request(
      'PUT',
      `${FEATURES}/known/environments/development/strategies/${strategyId}`,
      {
        ...admin(server),
        body: { name: 'flexibleRollout', parameters: { rollout: '5' }, disabled: true },
      },
    );
    expect(off.status, off.text).toBe(200);
    await expectModelAsStored('known');
    expect(server.ctx.model.feature('known')?.strategies[0]?.disabled).toBe(true);
  });
});
