import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPostgres, startTestServer, type TestServer } from '../server.js';
import { type CostRequest, costRequest, isSdkPath, kindsOf, type Sender } from './cost-requests.js';
import { buildFixture, type Fixture } from './fixture.js';
import { importDocuments } from './import-documents.js';
import { type Operation, operationsOf } from './openapi.js';

/**
 * `npm run fuzz -- --cost`: every operation of the OpenAPI document with the largest inputs its
 * schemas allow (largest.ts), sent by a Viewer and by the SDK tokens that may call it, and by an
 * Admin so that the largest valid writes are made, each against the fixture's resources. Each
 * answer must come within ANSWER_MS and the event loop — which runs the server, and on the
 * embedded database the database too — must never stall longer than STALL_MS. The same bounds hold
 * on PostgreSQL: there the database's own work does not stall the loop, and it is no slower.
 */
const ANSWER_MS = 1000;
/**
 * The imports of a whole document (the largest valid one: some 970 flags with their strategies in
 * one 1 MiB body) answer within this instead. On the embedded database the first such import in a
 * process took 1.0–1.8 s on this machine (its statements run for the first time; later ones 0.5 s),
 * and making it faster is issue 23's work. Their loop stalls are bounded as every other's.
 */
const BULK_ANSWER_MS = 3000;
const BULK_IMPORTS = new Set(['POST /api/admin/features-batch/import', 'POST /api/admin/state/import']);
const STALL_MS = 200;
/** The loop's delay is sampled this often (ms); a stall shows once the loop is free again. */
const RESOLUTION_MS = 10;

interface Measure {
  label: string;
  operation: string;
  status: number;
  ms: number;
  stallMs: number;
  bytes: number;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INTEGRATION_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(() => server?.close());

/**
 * Who sends what, in an order that keeps the run's own credentials: the Viewer and the SDK tokens
 * first (fixture A); then an Admin, on the resources of fixture B, so that what it changes or
 * deletes is not what the run signs in with; every DELETE last, removing a PAT last of all.
 */
function plan(operations: Operation[], a: Fixture, b: Fixture) {
  const removes = (op: Operation) =>
    op.method === 'DELETE' || /\/(archive|delete|changeProject|stale)$/.test(op.path);
  const last = (op: Operation) => (removes(op) ? (op.path.includes('/user/tokens') ? 2 : 1) : 0);
  const ordered = [...operations].sort((x, y) => last(x) - last(y));
  const steps: { op: Operation; sender: Sender; fixture: Fixture }[] = [];
  for (const phase of [0, 1, 2]) {
    for (const op of ordered.filter((o) => last(o) === phase)) {
      const senders: Sender[] = isSdkPath(op.path) ? ['client', 'frontend'] : ['viewer'];
      for (const sender of senders) steps.push({ op, sender, fixture: a });
    }
    for (const op of ordered.filter((o) => last(o) === phase && !isSdkPath(o.path))) {
      steps.push({ op, sender: 'adminUser', fixture: b });
    }
  }
  return steps;
}

it('answers the largest requests every operation allows within 1 s, never stalling the loop 200 ms', async () => {
  const started = Date.now();
  const database = isPostgres() ? 'PostgreSQL' : 'the embedded database';
  const document = await server.request('GET', '/docs/json');
  expect(document.status).toBe(200);
  const operations = operationsOf(document.body);
  const a = await buildFixture(server, 0);
  const b = await buildFixture(server, 1);
  const [project, environment, feature] = [
    b.pools.projectId![0],
    b.pools.environment![0],
    b.pools.featureName![0],
  ];
  const documents = await importDocuments(server, String(project), String(environment), String(feature));
  // Every request its own address, as strangers': the per-address limits count the run's requests
  // as they would count the internet's, not against one another.
  let sent = 0;
  const address = () => `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  loop.enable();

  async function send(request: CostRequest): Promise<Measure> {
    // The request is made; settle the loop before the clock starts.
    await sleep(RESOLUTION_MS * 2);
    loop.reset();
    const begin = performance.now();
    const res = await server.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: request.headers,
      payload: request.payload,
      remoteAddress: address(),
    });
    const ms = performance.now() - begin;
    await sleep(RESOLUTION_MS * 2);
    sent++;
    const stallMs = Math.max(0, loop.max / 1e6 - RESOLUTION_MS);
    if (request.operation === 'POST /api/admin/maintenance' && res.statusCode < 300) {
      await server.request('POST', '/api/admin/maintenance', {
        token: server.adminToken,
        body: { enabled: false },
      });
    }
    return {
      label: request.label,
      operation: request.operation,
      status: res.statusCode,
      ms,
      stallMs,
      bytes: request.bytes,
    };
  }

  const measures: Measure[] = [];
  const byStatus = new Map<number, number>();
  const adminWrites = { sent: 0, succeeded: new Set<string>() };
  for (const { op, sender, fixture } of plan(operations, a, b)) {
    for (const kind of kindsOf(op)) {
      const document = kind === 'many' ? documents.get(`${op.method} ${op.path}`) : undefined;
      const request = costRequest(op, kind, sender, fixture, document);
      const measure = await send(request);
      measures.push(measure);
      byStatus.set(measure.status, (byStatus.get(measure.status) ?? 0) + 1);
      if (sender === 'adminUser' && op.method !== 'GET') {
        adminWrites.sent++;
        if (measure.status < 300) adminWrites.succeeded.add(request.operation);
      }
    }
  }
  loop.disable();
  const health = await server.request('GET', '/health');
  expect(health.status, 'the server is still up').toBe(200);

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const slowest = [...measures].sort((x, y) => y.ms - x.ms).slice(0, 10);
  const stalled = [...measures].sort((x, y) => y.stallMs - x.stallMs).slice(0, 5);
  const describe = (m: Measure) =>
    `${m.label}: ${m.status} in ${m.ms.toFixed(0)} ms, loop stalled ${m.stallMs.toFixed(0)} ms, body ${m.bytes} bytes`;
  const writes = operations.filter((o) => o.method !== 'GET' && !isSdkPath(o.path)).length;
  console.log(
    [
      `cost: ${measures.length} requests to ${operations.length} operations in ${seconds} s on ${database}`,
      `  statuses: ${[...byStatus]
        .sort(([x], [y]) => x - y)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
      `  Admin writes: ${adminWrites.sent} sent, ${adminWrites.succeeded.size} of ${writes} write operations answered 2xx`,
      '  longest loop stalls:',
      ...stalled.map((m) => `    ${describe(m)}`),
      '  slowest answers:',
      ...slowest.map((m) => `    ${describe(m)}`),
    ].join('\n'),
  );
  const answerMs = (m: Measure) => (BULK_IMPORTS.has(m.operation) ? BULK_ANSWER_MS : ANSWER_MS);
  const over = measures.filter((m) => m.ms > answerMs(m) || m.stallMs > STALL_MS);
  expect(
    over.map(describe),
    `answers over ${ANSWER_MS} ms (imports ${BULK_ANSWER_MS} ms) or loop stalls over ${STALL_MS} ms`,
  ).toEqual([]);
});
