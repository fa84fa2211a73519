import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { longestStall } from '../../../test/loop-stall.js';
import { createFeature, startTestServer, type TestServer } from '../../../test/server.js';
import { type StrategyRow, upsertStrategyRows } from './store.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await createFeature(server, 'bulk-written');
});
afterAll(() => server?.close());

// What an import of a couple of thousand features writes into one table: 6 MB of JSON.
const COUNT = 3000;

it('writes thousands of rows in order without holding the event loop for all of them at once', async () => {
  const rows: StrategyRow[] = Array.from({ length: COUNT }, (_, i) => ({
    id: randomUUID(),
    featureName: 'bulk-written',
    environment: 'development',
    name: 'default',
    title: null,
    disabled: false,
    parameters: {},
    constraints: [
      {
        contextName: 'userId',
        operator: 'IN',
        values: ['u'.repeat(2000)],
        inverted: false,
        caseInsensitive: false,
      },
    ],
    variants: [],
    sortOrder: i,
  }));
  // The writes alone: committing them is one statement, whatever they were.
  let stall = 0;
  let took = 0;
  await server.ctx.db.transaction(async (tx) => {
    const started = performance.now();
    stall = await longestStall(() => upsertStrategyRows(tx, rows));
    took = performance.now() - started;
  });
  // No statement held the loop for a good part of the write (in one, the write was one stall).
  // Relative, so that a busy machine changes nothing.
  expect(stall).toBeLessThan(took / 2);
  const { rows: written } = await server.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM feature_strategies WHERE feature_name = 'bulk-written'`,
  );
  expect(written[0]!.n).toBe(COUNT);
});
