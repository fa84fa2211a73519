import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longestStall } from '../../test/loop-stall.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { SYSTEM_ACTOR } from '../http/identity.js';
import { recordEvent } from './service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the events of one transaction', () => {
  // Twice as many as an import of a thousand features records, with their data: 8 MB of JSON.
  const COUNT = 4000;

  it('are written in order without holding the event loop for all of them at once', async () => {
    const started = performance.now();
    const stall = await longestStall(() =>
      server.ctx.db.transaction(async (tx) => {
        for (let i = 0; i < COUNT; i++) {
          recordEvent(tx, SYSTEM_ACTOR, {
            type: 'feature-metadata-updated',
            featureName: `large-writes-${i}`,
            data: { index: i, description: 'x'.repeat(2000) },
          });
        }
      }),
    );
    const took = performance.now() - started;
    // The loop ran between the statements: none of them held it for a good part of the write (in
    // one statement, the whole write was one stall). Relative, so that a busy machine changes nothing.
    expect(stall).toBeLessThan(took / 2);

    const { rows } = await server.ctx.db.query<{ n: number }>(
      `SELECT (data->>'index')::int AS n FROM events WHERE feature_name LIKE 'large-writes-%' ORDER BY id`,
    );
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
  });
});
