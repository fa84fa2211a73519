import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFeature, startTestServer, type TestServer } from '../../test/server.js';
import type { Database } from '../db/database.js';
import { createMetricsBuffer } from './service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await createFeature(server, 'counted');
});
afterAll(() => server?.close());

const variantsOf = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, v) => [`variant-${v}`, 1]));

it('writes a flush of many variants in short transactions, however many variants one count has', async () => {
  // The database as the buffer sees it, timing each of its transactions.
  const db = server.ctx.db;
  const transactions: number[] = [];
  const timed: Database = Object.create(db);
  timed.transaction = async (fn, options) => {
    const started = performance.now();
    try {
      return await db.transaction(fn, options);
    } finally {
      transactions.push(performance.now() - started);
    }
  };
  const buffer = createMetricsBuffer({ ...server.ctx, db: timed });
  const start = new Date('2026-01-01T10:00:00Z');
  // One count of 10,000 variants (an SDK that names one per user), then 100 counts of 100 each.
  buffer.add({
    appName: 'wide',
    environment: 'development',
    start,
    toggles: { counted: { yes: 3, no: 4, variants: variantsOf(10_000) } },
  });
  for (let i = 0; i < 100; i++) {
    buffer.add({
      appName: `app-${i}`,
      environment: 'development',
      start,
      toggles: { counted: { yes: 1, no: 1, variants: variantsOf(100) } },
    });
  }
  const started = performance.now();
  await buffer.close();
  const took = performance.now() - started;

  // 250 rows a transaction at most: the wide count's 10,001 in 40 of 250 and one of 41, which two
  // counts of 101 rows join; the other 98 two by two.
  expect(transactions.length).toBe(90);
  // Every other query waits while one runs (on the embedded database); none was a good part of the
  // flush (in one, it was all of it). Relative, so that a busy machine changes nothing.
  expect(Math.max(...transactions)).toBeLessThan(took / 8);
  const wide = `CASE app_name WHEN 'wide' THEN 'wide' ELSE 'others' END`;
  const counts = await db.query(
    `SELECT ${wide} AS apps, sum(yes)::int AS yes, sum(no)::int AS no FROM client_metrics_hourly
      WHERE feature_name = 'counted' GROUP BY 1 ORDER BY 1`,
  );
  expect(counts.rows).toEqual([
    { apps: 'others', yes: 100, no: 100 },
    { apps: 'wide', yes: 3, no: 4 },
  ]);
  const variants = await db.query(
    `SELECT ${wide} AS apps, count(*)::int AS n, sum(count)::int AS total FROM client_metrics_variants_hourly
      WHERE feature_name = 'counted' GROUP BY 1 ORDER BY 1`,
  );
  expect(variants.rows).toEqual([
    { apps: 'others', n: 10_000, total: 10_000 },
    { apps: 'wide', n: 10_000, total: 10_000 },
  ]);
});
