import { afterAll, beforeAll, expect, it } from 'vitest';
import { longestStall } from '../../test/loop-stall.js';
import { createFeature, startTestServer, type TestServer } from '../../test/server.js';
import type { HourlyCount } from './batch.js';
import { addHourlyCounts } from './store.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await createFeature(server, 'counted');
});
afterAll(() => server?.close());

it('writes the variants of a thousand counts without holding the event loop for all of them', async () => {
  // One write of the metrics buffer at its largest: 1,000 counts of 100 variants each.
  const hour = new Date('2026-01-01T10:00:00Z');
  const counts: HourlyCount[] = Array.from({ length: 1000 }, (_, i) => ({
    featureName: 'counted',
    appName: `app-${i}`,
    environment: 'development',
    hour,
    yes: 1,
    no: 1,
    variants: new Map(Array.from({ length: 100 }, (_, v) => [`variant-${v}`, 1] as const)),
  }));
  let stall = 0;
  let took = 0;
  await server.ctx.db.transaction(async (tx) => {
    const started = performance.now();
    stall = await longestStall(() => addHourlyCounts(tx, counts));
    took = performance.now() - started;
  });
  // The loop ran between the statements: none of them held it for a good part of the write (in
  // one statement, the write was one 2.5 s stall). Relative, so that a busy machine changes nothing.
  expect(stall).toBeLessThan(took / 2);
  const { rows } = await server.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM client_metrics_variants_hourly WHERE feature_name = 'counted'`,
  );
  expect(rows[0]!.n).toBe(100_000);
});
