import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../test/requests.js';
import { isPostgres, startTestServer, type TestServer } from '../../test/server.js';
import { stateDocument } from '../../test/state-document.js';
import type { Database } from '../db/database.js';
import { type FeatureRecord, loadFeatureRecords } from '../read-model/queries.js';

// The features a state import creates reach this process's model as the import wrote them, not
// read back (on the embedded database: see `handCreatedToCaches`). The copies must be what a
// reload reads, member for member, in the same order (answers and their ETags are made from them).

/** Rows the database answered to reads of whole feature records, counted while `db` is watched. */
function watchRecordReads(db: Database): { rows: number } {
  const count = { rows: 0 };
  const transaction = db.transaction.bind(db);
  const watched = (tx: Parameters<Parameters<Database['transaction']>[0]>[0]) =>
    new Proxy(tx, {
      get(target, property) {
        if (property !== 'query') return Reflect.get(target, property);
        return async (text: string, params?: readonly unknown[]) => {
          const result = await target.query(text, params);
          if (text.includes("'lastSeenAt', fe.last_seen_at")) count.rows += result.rows.length;
          return result;
        };
      },
    });
  db.transaction = ((fn, options) =>
    transaction((tx) => fn(watched(tx)), options)) as Database['transaction'];
  return count;
}

/** A record as JSON, its environments by name and its stages by stage (both in no order of their own). */
function comparable(record: FeatureRecord | undefined): string {
  if (!record) return 'missing';
  return JSON.stringify({
    ...record,
    environments: [...record.environments].sort((a, b) => (a.name < b.name ? -1 : 1)),
    stages: [...record.stages].sort((a, b) => (a.stage < b.stage ? -1 : 1)),
  });
}

describe("a state import's new features", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('are in the model as a reload reads them, without a reload', async () => {
    const document = stateDocument(60, { prefix: 'made-', firstSegmentId: 40 });
    // Three strategies at one place, tags made in one transaction: ties a reload breaks by text.
    (document.features as unknown[]).push({ name: 'made-ties', project: 'made-alpha' });
    (document.featureStrategies as unknown[]).push(
      ...['b-tie', 'A-tie', 'a-tie'].map((id) => ({
        id,
        featureName: 'made-ties',
        projectId: 'made-alpha',
        environment: 'development',
        name: 'default',
        parameters: {},
        constraints: [],
        variants: [],
        segments: [41, 40],
        sortOrder: 0,
      })),
    );
    for (const value of ['zeta', 'Zeta', 'élan', 'alpha'])
      document.featureTags.push({ featureName: 'made-ties', tagType: 'simple', tagValue: value });
    const reads = watchRecordReads(server.ctx.db);

    const res = await server.request('POST', '/api/admin/state/import', { ...admin(server), body: document });
    expect(res.status, res.text).toBe(202);
    await server.ctx.sync.settled();

    expect(reads.rows).toBe(isPostgres() ? document.features.length : 0);
    const names = document.features.map((f) => f.name);
    const read = new Map((await loadFeatureRecords(server.ctx.db, names)).map((r) => [r.name, r]));
    expect(read.size).toBe(names.length);
    for (const name of names)
      expect(comparable(server.ctx.model.feature(name)), name).toBe(comparable(read.get(name)));
    expect(server.ctx.model.feature('made-ties')?.strategies.map((s) => s.id)).toEqual([
      'A-tie',
      'a-tie',
      'b-tie',
    ]);
  });
});
