import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { longestStall } from '../../test/loop-stall.js';
import type { Database } from './database.js';
import { openEmbedded } from './embedded.js';

const QUERIES = 5000;

describe.skipIf(inject('embeddedTemplate') === '')('the embedded database and the event loop', () => {
  let db: Database;
  beforeAll(async () => {
    const template = readFileSync(inject('embeddedTemplate'));
    db = await openEmbedded({ template: () => template });
  });
  afterAll(() => db?.close());

  it('lets the loop run between queries: thousands in a row never hold it for long', async () => {
    const started = performance.now();
    const alone = await longestStall(async () => {
      for (let i = 0; i < QUERIES; i++) await db.query('SELECT $1::int AS n', [i]);
    });
    const tookAlone = performance.now() - started;
    const begun = performance.now();
    const inTransaction = await longestStall(() =>
      db.transaction(async (tx) => {
        for (let i = 0; i < QUERIES; i++) await tx.query('SELECT $1::int AS n', [i]);
      }),
    );
    const tookInTransaction = performance.now() - begun;
    // Without a turn of the loop, the queries were one stall as long as all of them. Relative, so
    // that a busy machine changes nothing.
    expect(alone).toBeLessThan(tookAlone / 2);
    expect(inTransaction).toBeLessThan(tookInTransaction / 2);
  });
});
