// `npm run bench`: starts Flagpole (built in dist/) on a fresh database, drives each case with
// autocannon over loopback, and prints req/s, p99 latency and RSS, each beside a bare Fastify
// route serving the same bytes in the same run. Machines are noisy: compare ratios, not figures.
//   BENCH_DURATION=5   seconds per case           DATABASE_URL=postgres://…  run on PostgreSQL
//   BENCH_SCENARIOS=client,access   only these scenarios (see bench/scenarios/index.ts)
//   -- --streams N                  instead: N idle SDK streams, their memory and a change's fan-out
// One-off operations a scenario times (E5: importing 1,000 features) are listed after the table.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { scenarios } from './scenarios/index.js';
import type { BenchContext, Case } from './scenarios/types.js';
import { printStreamsReport, streamsBench } from './streams.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const STREAMS = (() => {
  const at = process.argv.indexOf('--streams');
  if (at < 0) return undefined;
  const n = Number(process.argv[at + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error('--streams takes a number of streams');
  return n;
})();
const CONNECTIONS = 10;
const ADMIN_TOKEN = `*:*.${'b'.repeat(56)}`;

interface Measured {
  rps: number;
  p99: number;
  errors: number;
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Every process this run starts, so none outlives it whatever happens. */
const spawned: ChildProcess[] = [];

/** Flagpole is run exactly as `npm start` runs it: `[VAR=value …] node [flags …] dist/main.js`. */
const START = (() => {
  const words: string[] = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const assignments = words.slice(0, node).filter((w) => w.includes('='));
  const env = Object.fromEntries(assignments.map((w) => w.split('=') as [string, string]));
  return { env, args: words.slice(node + 1) };
})();

function startFlagpole(env: Record<string, string | undefined>): {
  child: ChildProcess;
  ready: Promise<string>;
} {
  const child = spawn(process.execPath, START.args, {
    env: {
      ...process.env,
      ...START.env,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      // One load generator on one address and token stands for many SDKs: the per-address and
      // per-token limits of the SDK paths would measure the 429s, not the work.
      CLIENT_METRICS_RATE_LIMIT_PER_MINUTE: '100000000',
      REGISTER_CLIENT_RATE_LIMIT_PER_MINUTE: '100000000',
      SDK_TOKEN_RATE_LIMIT_PER_MINUTE: '100000000',
      FRONTEND_API_RATE_LIMIT_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      output += d;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m && output.includes('Flagpole is ready')) resolve(m[1]!);
    });
    child.stderr!.on('data', (d) => (output += d));
    child.on('exit', (code) => reject(new Error(`Flagpole exited (${code}): ${output}`)));
  });
  return { child, ready };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function timeStart(env: Record<string, string | undefined>): Promise<number> {
  const t0 = process.hrtime.bigint();
  const { child, ready } = startFlagpole(env);
  const base = await ready;
  const res = await fetch(`${base}/health`);
  if (res.status !== 200) throw new Error('health failed');
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  await stop(child);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function load(url: string, c: Case): Promise<Measured> {
  const result = await autocannon({
    url: url + c.path,
    method: c.method,
    headers: c.headers,
    body: c.body,
    // Each connection sends the two bodies in turn, so that every request changes something.
    ...(c.alternate !== undefined ? { requests: [{ body: c.body }, { body: c.alternate }] } : {}),
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `flagpole_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'flagpole-bench-'));
  const postgres = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : undefined;
  const backend = postgres ? 'PostgreSQL' : 'embedded (PGlite)';
  try {
    // Start-up times (embedded only: they are about the data directory).
    const firstStarts: number[] = [];
    const restarts: number[] = [];
    if (!postgres && STREAMS === undefined) {
      for (let i = 0; i < 3; i++) {
        const dir = path.join(work, `start-${i}`);
        firstStarts.push(await timeStart({ DATA_DIR: dir, PORT: '0', DATABASE_URL: '' }));
        restarts.push(await timeStart({ DATA_DIR: dir, PORT: '0', DATABASE_URL: '' }));
      }
    }

    const streamLimit = { STREAMING_MAX_CONNECTIONS: String(Math.max(STREAMS ?? 0, 10_000)) };
    const env = postgres
      ? { DATABASE_URL: postgres.url, PORT: '0', INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, ...streamLimit }
      : {
          DATA_DIR: path.join(work, 'data'),
          PORT: '0',
          DATABASE_URL: '',
          INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
          ...streamLimit,
        };
    const { child, ready } = startFlagpole(env);
    const url = await ready;
    const rssIdle = rssMiB(child.pid!);

    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(url + p, {
        method,
        headers: {
          authorization: ADMIN_TOKEN,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}: ${text}`);
      return text ? JSON.parse(text) : undefined;
    };

    if (STREAMS !== undefined) {
      const report = await streamsBench({
        url,
        adminToken: ADMIN_TOKEN,
        streams: STREAMS,
        rss: () => rssMiB(child.pid!),
        call,
      });
      printStreamsReport(report, backend);
      await stop(child);
      return;
    }

    // An Editor with a personal access token, for the cases that act as a user.
    const user = { username: 'bench', password: 'Bench-Password-1' };
    await call('POST', '/api/admin/user-admin', { ...user, rootRole: 2 });
    const login = await fetch(`${url}/auth/simple/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const patRes = await fetch(`${url}/api/admin/user/tokens`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        description: 'bench',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    });
    const pat = ((await patRes.json()) as { secret: string }).secret;
    const timings: { name: string; seconds: number }[] = [];
    const timed = async (name: string, run: () => Promise<unknown>) => {
      const started = performance.now();
      await run();
      timings.push({ name, seconds: (performance.now() - started) / 1000 });
    };
    const benchContext: BenchContext = { url, adminToken: ADMIN_TOKEN, pat, user, call, timed };
    const cases: Case[] = [];
    const wanted = process.env.BENCH_SCENARIOS?.split(',').map((n) => n.trim()) ?? Object.keys(scenarios);
    for (const name of wanted) {
      const scenario = scenarios[name];
      if (!scenario) throw new Error(`No bench scenario "${name}": ${Object.keys(scenarios).join(', ')}`);
      cases.push(...(await scenario(benchContext)));
    }

    // The baseline serves, for each case, the bytes Flagpole answered.
    const routes = [];
    for (const c of cases) {
      const res = await fetch(url + c.path, { method: c.method, headers: c.headers, body: c.body });
      if (!res.ok) throw new Error(`${c.name} answered ${res.status}`);
      routes.push({
        method: c.method,
        url: c.path,
        status: res.status,
        contentType: res.headers.get('content-type') ?? 'application/json',
        body: await res.text(),
      });
    }
    const routesFile = path.join(work, 'routes.json');
    writeFileSync(routesFile, JSON.stringify(routes));
    const baseline = spawn(process.execPath, ['--import', 'tsx', 'bench/baseline.ts', routesFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    spawned.push(baseline);
    const baselineUrl = await new Promise<string>((resolve, reject) => {
      baseline.stdout!.once('data', (d) => resolve(String(d).trim()));
      baseline.once('exit', (code) =>
        reject(new Error(`The baseline server exited (${code}) before listening.`)),
      );
    });

    const rows: string[][] = [];
    let rssPeak = rssIdle;
    for (const c of cases) {
      await load(url, { ...c }); // warm-up, not counted
      const flagpole = await load(url, c);
      rssPeak = Math.max(rssPeak, rssMiB(child.pid!));
      const bare = await load(baselineUrl, c);
      // A baseline that failed its requests measured nothing to compare with.
      if (bare.errors > 0) throw new Error(`The baseline answered ${c.name} with ${bare.errors} errors.`);
      const rssNow = rssMiB(child.pid!);
      rows.push([
        c.name,
        flagpole.rps.toFixed(0),
        flagpole.p99.toFixed(1),
        bare.rps.toFixed(0),
        bare.p99.toFixed(1),
        (flagpole.rps / bare.rps).toFixed(2),
        (flagpole.p99 / Math.max(bare.p99, 0.1)).toFixed(1),
        String(flagpole.errors),
        rssNow.toFixed(0),
      ]);
      await sleep(200);
    }
    const rssAfter = rssMiB(child.pid!);
    baseline.kill('SIGTERM');
    // V8 gives memory back once the process has been quiet for a while: what a server settles at.
    await sleep(10_000);
    const rssSettled = rssMiB(child.pid!);
    await stop(child);

    const header = [
      'case',
      'req/s',
      'p99 ms',
      'bare req/s',
      'bare p99',
      'ratio req/s',
      'ratio p99',
      'errors',
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log(
      `\nFlagpole benchmark — ${backend}, ${CONNECTIONS} connections, ${DURATION} s per case, node ${process.version}`,
    );
    console.log(line(header));
    for (const r of rows) console.log(line(r));
    if (timings.length > 0) {
      console.log(`\nOne-off operations (${backend}):`);
      const width = Math.max(...timings.map((t) => t.name.length));
      for (const t of timings) console.log(`${t.name.padEnd(width)}  ${t.seconds.toFixed(2)} s`);
    }
    console.log(
      `\nRSS: ${rssIdle.toFixed(0)} MiB idle, ${rssPeak.toFixed(0)} MiB peak under load, ${rssAfter.toFixed(0)} MiB right after, ${rssSettled.toFixed(0)} MiB 10 s after`,
    );
    if (firstStarts.length) {
      console.log(
        `Start-up to first /health 200 (median of 3): first start on an empty DATA_DIR ${median(firstStarts).toFixed(0)} ms, ` +
          `restart on an existing one ${median(restarts).toFixed(0)} ms`,
      );
    }
  } finally {
    for (const p of spawned) if (p.exitCode === null) p.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
    await postgres?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
