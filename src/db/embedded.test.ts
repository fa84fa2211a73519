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

  it('lets the loop run between queries: thousands in a row never hold it 100 ms', async () => {
    const alone = await longestStall(async () => {
      for (let i = 0; i < QUERIES; i++) await db.query('SELECT $1::int AS n', [i]);
    });
    const inTransaction = await longestStall(() =>
      db.transaction(async (tx) => {
        for (let i = 0; i < QUERIES; i++) await tx.query('SELECT $1::int AS n', [i]);
      }),
    );
    expect(alone).toBeLessThan(100);
    expect(inTransaction).toBeLessThan(100);
  });
});
