import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ScheduledRequests } from './crash-jobs.js';
import { Ledger } from './crash-ledger.js';
import { METRICS_FLAGS, runClients, type Target } from './crash-load.js';
import { findHalfWrites, readState, type ServerState } from './crash-state.js';
import { type FlagpoleProcess, killAll, startFlagpole } from './flagpole-process.js';
import { call, expectStatus } from './http.js';
import { createEmptyDatabase, type EmptyDatabase } from './postgres-database.js';
import { runSeed, seededRandom } from './seeded-random.js';

// SIGKILL at random moments, under concurrent writes, then a restart on the same data: every write
// answered 2xx before the kill is there afterwards, whole, with its audit event; the server starts
// every time by itself (a stale lock file, an interrupted first start or migration).
//
// SDK metrics answered 202 are summed in memory for up to a second before they are written (the
// README says so), so a kill -9 may lose the last second of them. What is asserted of them here:
// a batch is written whole or not at all (every report counts two flags equally, and their stored
// sums stay equal), never twice (the sums never pass what was posted), and what was written stays
// written; and a SIGTERM at the end loses none.

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 50);
const CLIENTS = 4;
const LOAD_MS = [100, 1600] as const;
/** The first rounds start on an empty database; they are killed while it is created and migrated. */
const FIRST_STARTS_KILLED = 3;
const KILLED_DURING_START = 0.1;
const START_LIMIT_MS = 60_000;

const postgresUrl = inject('postgresUrl');
const backend = postgresUrl ? 'PostgreSQL' : 'the embedded database';

async function listening(server: FlagpoleProcess): Promise<string> {
  const limit = sleep(START_LIMIT_MS).then(() => {
    throw new Error(`Flagpole did not start within ${START_LIMIT_MS} ms:\n${server.output()}`);
  });
  return Promise.race([server.ready, limit]);
}

describe(`kill -9 at random moments on ${backend}`, () => {
  let dataDir: string | undefined;
  let database: EmptyDatabase | undefined;
  const adminToken = `*:*.${randomBytes(28).toString('hex')}`;
  const clientToken = `default:development.${randomBytes(28).toString('hex')}`;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (postgresUrl) database = await createEmptyDatabase(postgresUrl, 'crash');
    else dataDir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-crash-'));
    env = {
      ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '', DATA_DIR: dataDir! }),
      INIT_ADMIN_API_TOKENS: adminToken,
      INIT_CLIENT_API_TOKENS: clientToken,
    };
  });
  afterEach(killAll);
  afterAll(async () => {
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`loses no acknowledged write over ${ROUNDS} kills, keeps none by half, and restarts by itself`, async () => {
    const started = Date.now();
    const seed = runSeed(`crash test on ${backend}`);
    const random = seededRandom(seed);
    const ledger = new Ledger(CLIENTS);
    const jobs = new ScheduledRequests();
    const jobRandom = seededRandom(seed + 7);
    const unexpected: string[] = [];
    const totals = {
      acknowledged: 0,
      unanswered: 0,
      killedStarting: 0,
      killedBeforeListening: 0,
      killedLoaded: 0,
      startMs: [] as number[],
    };
    let metricsWritten = 0;
    let flagsMade = false;

    /** Checks everything against the ledger; returns the state read. */
    const check = async (base: string, when: string): Promise<ServerState> => {
      const state = await readState(base, adminToken);
      const problems = [
        ...findHalfWrites(state),
        ...ledger.settle(state.features),
        ...(await jobs.check(base, adminToken)),
      ];
      if (flagsMade) {
        const [a, b] = METRICS_FLAGS.map((f) => state.metrics[f] ?? { yes: 0, no: 0 });
        if (a!.yes !== b!.yes || a!.no !== 0 || b!.no !== 0) {
          problems.push(`usage counts written by half: ${JSON.stringify(state.metrics)}`);
        }
        const posted = ledger.metricsAcknowledged + ledger.metricsUnanswered;
        if (a!.yes > posted) problems.push(`${a!.yes} usage counts stored, only ${posted} were posted`);
        if (a!.yes < metricsWritten)
          problems.push(`usage counts went from ${metricsWritten} down to ${a!.yes}`);
        metricsWritten = a!.yes;
      }
      expect(problems, `${when} (seed ${seed})`).toEqual([]);
      return state;
    };

    let lastStartMs = 1500;
    for (let round = 1; round <= ROUNDS; round++) {
      const spawnedAt = Date.now();
      const server = startFlagpole(env);
      if (round <= FIRST_STARTS_KILLED || random.chance(KILLED_DURING_START)) {
        let listened = false;
        server.ready.then(
          () => {
            listened = true;
          },
          () => {}, // killed before it listened: counted below
        );
        const exit = await Promise.race([server.exited, sleep(random.int(0, lastStartMs))]);
        if (exit)
          throw new Error(
            `Flagpole exited by itself during start-up (${JSON.stringify(exit)}):\n${server.output()}`,
          );
        await server.kill();
        totals.killedStarting += 1;
        if (!listened) totals.killedBeforeListening += 1;
        continue;
      }
      const base = await listening(server);
      lastStartMs = Date.now() - spawnedAt;
      totals.startMs.push(lastStartMs);
      const state = await check(base, `after kill ${round - 1}`);
      if (!flagsMade) {
        for (const name of METRICS_FLAGS) {
          if (state.features.has(name)) continue;
          await expectStatus(base, 'POST', '/api/admin/projects/default/features', 201, {
            token: adminToken,
            body: { name },
          });
        }
        flagsMade = true;
      }
      await jobs.setUp(base, adminToken);
      await jobs.scheduleOne(base, round, jobRandom, LOAD_MS[1]);

      let stopping = false;
      const randoms = ledger.clients.map((_, i) => seededRandom(seed + round * 1000 + i));
      const target: Target = { base, adminToken, clientToken };
      const load = runClients(target, ledger, randoms, round, () => stopping, unexpected);
      await sleep(random.int(...LOAD_MS));
      stopping = true;
      await server.kill();
      const counts = await load;
      totals.acknowledged += counts.acknowledged;
      totals.unanswered += counts.unanswered;
      totals.killedLoaded += 1;
      expect(unexpected, `round ${round} (seed ${seed})`).toEqual([]);
    }

    // Then a graceful stop: every usage count answered 202 is written.
    const acknowledgedBeforeKills = ledger.metricsAcknowledged;
    const last = startFlagpole(env);
    const base = await listening(last);
    const before = await check(base, `after kill ${ROUNDS}`);
    let posted = 0;
    for (let i = 0; i < 20; i++) {
      const count = random.int(1, 100);
      const start = new Date().toISOString();
      const toggles = Object.fromEntries(METRICS_FLAGS.map((flag) => [flag, { yes: count, no: 0 }]));
      const outcome = await call(base, 'POST', '/api/client/metrics', {
        token: clientToken,
        body: { appName: 'crash-test', instanceId: 'last', bucket: { start, stop: start, toggles } },
      });
      expect(outcome.answered && outcome.status).toBe(202);
      posted += count;
    }
    ledger.metricsAcknowledged += posted;
    expect(await last.stop()).toEqual({ code: 0, signal: null });
    const again = startFlagpole(env);
    const after = await check(await listening(again), 'after SIGTERM');
    expect(after.metrics[METRICS_FLAGS[0]]!.yes).toBe(before.metrics[METRICS_FLAGS[0]]!.yes + posted);
    // The jobs runner looks every second: by then every request due has been applied.
    let jobProblems = await jobs.check(await listening(again), adminToken, true);
    for (let i = 0; i < 50 && jobProblems.length > 0; i++) {
      await sleep(100);
      jobProblems = await jobs.check(await listening(again), adminToken, true);
    }
    expect(jobProblems, `scheduled change requests (seed ${seed})`).toEqual([]);
    expect(await again.stop()).toEqual({ code: 0, signal: null });

    const sorted = [...totals.startMs].sort((x, y) => x - y);
    console.log(
      `crash test on ${backend}: ${ROUNDS} kill -9 rounds survived (${totals.killedStarting} during start-up, ` +
        `${totals.killedBeforeListening} of them before it listened; ${totals.killedLoaded} under load); ` +
        `${totals.acknowledged} writes acknowledged, 0 lost, none half-written; ${totals.unanswered} in flight at a kill; ` +
        `${after.features.size} features, ${after.events.length} events; ${jobs.scheduled.length} scheduled change requests each applied once; usage counts: ${acknowledgedBeforeKills} answered 202 ` +
        `before kills, ${before.metrics[METRICS_FLAGS[0]]!.yes} written (the rest still in the 1-s buffer), written whole, none twice; ` +
        `all ${posted} answered before a SIGTERM written; restart p50 ${sorted[Math.floor(sorted.length / 2)]} ms, ` +
        `max ${sorted.at(-1)} ms; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });
});
