import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { type FlagpoleProcess, killAll, startFlagpole } from './flagpole-process.js';
import { call, expectStatus } from './http.js';
import { createEmptyDatabase, type EmptyDatabase } from './postgres-database.js';
import { runSeed, seededRandom } from './seeded-random.js';
import { StreamView, stateOf } from './sse-view.js';

// SDKs streaming from every process while a burst of changes (grouped commits, changes the caches
// take without a read) is cut by kill -9 of the process taking them. Afterwards every stream,
// reconnected with Last-Event-ID, holds exactly what every process serves: no change skipped, none
// applied twice (a stream's event ids only ever grow).

const FEATURES = '/api/admin/projects/default/features';
const FLAGS = 12;
const WRITERS = 8;
const STREAMS_PER_PROCESS = 3;
const SETTLE_LIMIT_MS = 10_000;

const postgresUrl = inject('postgresUrl');
const backend = postgresUrl ? 'PostgreSQL, two processes' : 'the embedded database';

describe(`kill -9 during a burst of changes, with SDK streams open (${backend})`, () => {
  let database: EmptyDatabase | undefined;
  let dataDir: string | undefined;
  const adminToken = `*:*.${randomBytes(28).toString('hex')}`;
  const clientToken = `default:development.${randomBytes(28).toString('hex')}`;

  afterEach(killAll);
  afterAll(async () => {
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves every process and every stream with the same flags', async () => {
    const random = seededRandom(runSeed(`stream burst on ${backend}`));
    if (postgresUrl) database = await createEmptyDatabase(postgresUrl, 'burst');
    else dataDir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-burst-'));
    const env = {
      ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '', DATA_DIR: dataDir! }),
      INIT_ADMIN_API_TOKENS: adminToken,
      INIT_CLIENT_API_TOKENS: clientToken,
    };
    const start = async () => {
      const server = startFlagpole(env);
      return { server, base: await server.ready };
    };
    // The process taken down, and on PostgreSQL one that goes on serving throughout.
    let victim: { server: FlagpoleProcess; base: string } = await start();
    const survivor = postgresUrl ? await start() : undefined;
    const bases = () => [victim.base, ...(survivor ? [survivor.base] : [])];

    const names = Array.from({ length: FLAGS }, (_, i) => `burst-${i}`);
    const strategyIds = new Map<string, string>();
    for (const name of names) {
      await expectStatus(victim.base, 'POST', FEATURES, 201, { token: adminToken, body: { name } });
      const strategy = await expectStatus(
        victim.base,
        'POST',
        `${FEATURES}/${name}/environments/development/strategies`,
        200,
        { token: adminToken, body: { name: 'flexibleRollout', parameters: { rollout: '50' } } },
      );
      strategyIds.set(name, strategy.id);
    }

    // A stream connects first where it was meant to; once cut it reconnects to a process that is up
    // (the victim once restarted; on PostgreSQL the survivor).
    const firstThen = (first: string) => {
      let used = false;
      return () => {
        if (used) return survivor?.base ?? victim.base;
        used = true;
        return first;
      };
    };
    const streams = bases().flatMap((at) =>
      Array.from({ length: STREAMS_PER_PROCESS }, () => new StreamView(firstThen(at), clientToken)),
    );
    for (const view of streams) view.open();
    await sleep(500);

    // The burst: writers change descriptions, switches and rollouts through every process, and the
    // victim is killed in the middle of it.
    let stop = false;
    let acknowledged = 0;
    const writer = async () => {
      while (!stop) {
        const name = random.pick(names);
        const target = random.pick(bases());
        const kind = random.int(0, 2);
        const outcome =
          kind === 0
            ? await call(target, 'PATCH', `${FEATURES}/${name}`, {
                token: adminToken,
                body: [{ op: 'replace', path: '/description', value: `d${random.int(0, 999_999)}` }],
              })
            : kind === 1
              ? await call(
                  target,
                  'POST',
                  `${FEATURES}/${name}/environments/development/${random.int(0, 1) ? 'on' : 'off'}`,
                  {
                    token: adminToken,
                  },
                )
              : await call(
                  target,
                  'PUT',
                  `${FEATURES}/${name}/environments/development/strategies/${strategyIds.get(name)}`,
                  {
                    token: adminToken,
                    body: { name: 'flexibleRollout', parameters: { rollout: String(random.int(1, 100)) } },
                  },
                );
        if (outcome.answered && outcome.status < 300) acknowledged++;
      }
    };
    const writing = Array.from({ length: WRITERS }, writer);
    await sleep(random.int(300, 1000));
    await victim.server.kill();
    await sleep(random.int(200, 500));
    stop = true;
    await Promise.all(writing);
    victim = await start();

    // Every process serves the database's flags; every stream comes to hold the same.
    const served = async (base: string) => {
      const body = await expectStatus(base, 'GET', '/api/client/features', 200, { token: clientToken });
      return new Map<string, string>(body.features.map((f: { name: string }) => [f.name, stateOf(f)]));
    };
    const deadline = performance.now() + SETTLE_LIMIT_MS;
    let differences: string[] = [];
    for (;;) {
      const answers = await Promise.all(bases().map(served));
      const reference = answers[0]!;
      differences = [];
      for (const [i, answer] of answers.entries()) {
        if (stateOf([...answer]) !== stateOf([...reference]))
          differences.push(`process ${i} serves other flags`);
      }
      for (const [i, view] of streams.entries()) {
        const held = new Map([...view.flags].filter(([name]) => reference.has(name)));
        if (
          held.size !== reference.size ||
          [...reference].some(([name, state]) => held.get(name) !== state)
        ) {
          differences.push(`stream ${i} (last event ${view.lastEventId}) holds other flags`);
        }
      }
      if (differences.length === 0 || performance.now() > deadline) break;
      await sleep(100);
    }
    for (const view of streams) view.close();
    console.log(
      `stream burst (${backend}): ${acknowledged} changes acknowledged, ${streams.length} streams, ` +
        `${streams.reduce((n, v) => n + v.connections, 0)} connections, ${streams.reduce((n, v) => n + v.hydrations, 0)} hydrations`,
    );
    expect(differences).toEqual([]);
    expect(streams.flatMap((v) => v.faults)).toEqual([]);
    expect(acknowledged).toBeGreaterThan(20);
    await victim.server.stop();
    await survivor?.server.stop();
  });
});
