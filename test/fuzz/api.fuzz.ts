import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPostgres, startTestServer, type TestServer } from '../server.js';
import { changedTables, readStateDigest } from '../state-digest.js';
import { newTally, requestChecker } from './check.js';
import { buildFixture, type Fixture } from './fixture.js';
import { type Operation, operationsOf } from './openapi.js';
import { type FuzzRequest, requestArbitrary } from './requests.js';
import { schemaArbitraries } from './schema-arbitraries.js';
import { recordServerLog, summarizeLog } from './server-log.js';
import { sweepReads } from './sweep.js';

/** Set by scripts/fuzz.mjs from `npm run fuzz -- --seed N --long --requests N --minutes M`. */
const settings = {
  seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31),
  requests: Number(process.env.FUZZ_REQUESTS ?? 10_000),
  budgetMs: Number(process.env.FUZZ_MINUTES ?? 15) * 60_000,
};
const replay = process.env.FUZZ_REPLAY ?? `npm run fuzz -- --seed ${settings.seed}`;
/** Requests between two builds of the fixture (each followed by the sweep of every read). */
const ROUND = 1000;

const serverLog = recordServerLog();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' }, serverLog.logger);
});
afterAll(() => server?.close());

/** One arbitrary for every operation of the document, each request printed by its route. */
function arbitraryOf(operations: Operation[], fixture: Fixture): fc.Arbitrary<FuzzRequest> {
  const schemas = schemaArbitraries(new Set(Object.keys(fixture.pools)));
  return fc.oneof(
    ...operations.map((op) =>
      requestArbitrary(op, schemas).map((request) =>
        Object.defineProperty(request, fc.toStringMethod, {
          value: () => {
            const { path, query, body, contentType, credential } = request;
            const parts = JSON.stringify({ path, query, body, contentType, credential });
            return `${request.method} ${op.path} ${parts.slice(0, 3000)}`;
          },
        }),
      ),
    ),
  );
}

it('answers every fuzzed request without a 5xx, in the contract error shape, changing nothing it refuses', async () => {
  const started = Date.now();
  const database = isPostgres() ? 'PostgreSQL' : 'the embedded database';
  console.log(
    `fuzz: seed ${settings.seed}, ${settings.requests} requests on ${database} (replay: ${replay})`,
  );
  const document = await server.request('GET', '/docs/json');
  expect(document.status).toBe(200);
  const operations = operationsOf(document.body);
  const tally = newTally();
  const checker = requestChecker(server, tally, serverLog);
  let swept = 0;
  let arbitrary: fc.Arbitrary<FuzzRequest> | undefined;

  for (let round = 0; tally.sent < settings.requests; round++) {
    const unbuilt = await readStateDigest(server.ctx.db);
    const fixture = await buildFixture(server, round);
    checker.forget();
    // The digest sees a change when there is one: the fixture's own writes.
    expect(changedTables(unbuilt, await readStateDigest(server.ctx.db))).toEqual(
      expect.arrayContaining(['events', 'features', 'feature_strategies', 'projects', 'segments', 'users']),
    );
    const sweep = await sweepReads(server, fixture, operations);
    expect(sweep.failed, 'reads filled with the fixture must answer 2xx').toEqual([]);
    swept += sweep.answered;
    if (round === 0 && sweep.uncovered.length) {
      console.log(
        `fuzz: reads the fixture has no values for (fuzzed, not swept): ${sweep.uncovered.join(', ')}`,
      );
    }
    arbitrary ??= arbitraryOf(operations, fixture);
    const sentBefore = tally.sent;
    await fc.assert(
      fc.asyncProperty(arbitrary, (request) => checker.check(request, fixture)),
      {
        seed: (settings.seed + round) | 0,
        numRuns: Math.min(ROUND, settings.requests - tally.sent),
        interruptAfterTimeLimit: Math.max(settings.budgetMs - (Date.now() - started), 1),
        markInterruptAsFailure: true,
      },
    );
    if (tally.sent === sentBefore) throw new Error('fuzz: a round sent no request');
  }

  const health = await server.request('GET', '/health');
  expect(health.status, 'the server is still up').toBe(200);
  const last = await sweepReads(server, await buildFixture(server, 1_000_000), operations);
  expect(last.failed, 'reads after the fuzz must answer 2xx').toEqual([]);

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const byStatus = [...tally.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  const never = operations.map((o) => `${o.method} ${o.path}`).filter((o) => !tally.succeeded.has(o));
  const logged = summarizeLog(serverLog.lines);
  console.log(
    [
      `fuzz: ${tally.sent} requests in ${seconds} s on ${database}, seed ${settings.seed}: no 5xx, every error in the contract's shape`,
      `  statuses: ${byStatus.join(' ')}`,
      `  refused writes whose state was compared: ${tally.refusedWritesChecked}, changed: none (digests took ${(tally.digestMs / 1000).toFixed(1)} s)`,
      `  reads swept with the fixture (2xx): ${swept + last.answered}; writes skipped to keep the fuzzer's own token: ${tally.skipped}`,
      `  server warnings and errors logged: ${logged.length ? `\n    ${logged.join('\n    ')}` : 'none'}`,
      `  ${operations.length - never.length} of ${operations.length} operations answered 2xx at least once; never: ${never.join(', ') || 'none'}`,
    ].join('\n'),
  );
});
