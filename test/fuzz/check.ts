import type { TestServer } from '../server.js';
import { changedTables, readStateDigest, type StateDigest } from '../state-digest.js';
import type { Fixture } from './fixture.js';
import { answerProblems } from './oracle.js';
import { describeHttp, type FuzzRequest, type HttpRequest, toHttp } from './requests.js';
import type { ServerLog } from './server-log.js';

const REQUEST_TIMEOUT_MS = 15_000;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Each fuzzed request comes from an address of its own, as requests from the internet do: the
 * per-address rate limits then answer the fuzz as they answer strangers, and never the requests
 * the test itself makes (the fixture, the reads that must succeed) from the default address.
 */
function clientAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface Tally {
  sent: number;
  statuses: Map<number, number>;
  refusedWritesChecked: number;
  skipped: number;
  /** Operations (`METHOD /path`) that answered 2xx at least once. */
  succeeded: Set<string>;
  digestMs: number;
}

export function newTally(): Tally {
  return {
    sent: 0,
    statuses: new Map(),
    refusedWritesChecked: 0,
    skipped: 0,
    succeeded: new Set(),
    digestMs: 0,
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s to ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A write whose path names the fuzzer's own admin token would leave it without credentials. */
function deletesOwnCredentials(http: HttpRequest, fixture: Fixture): boolean {
  if (READS.has(http.method)) return false;
  return http.url
    .split('?')[0]!
    .split('/')
    .some((segment) => {
      try {
        return fixture.protectedSegments.has(decodeURIComponent(segment));
      } catch {
        return false;
      }
    });
}

function clip(text: string, max = 1500): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * Sends fuzzed requests one at a time and checks every answer: no 5xx, errors in the contract's
 * shape, no warning logged, and a refused write leaves the state's digest as it was. The digest before a write is
 * the one read after the last refused write when only reads came since (reads change nothing,
 * a write that succeeded forgets it), which saves most of the digests.
 */
export function requestChecker(server: TestServer, tally: Tally, serverLog: ServerLog) {
  let lastDigest: StateDigest | undefined;

  async function digest(): Promise<StateDigest> {
    const started = performance.now();
    const result = await readStateDigest(server.ctx.db);
    tally.digestMs += performance.now() - started;
    return result;
  }

  return {
    /** The state changed outside the fuzzed requests (the fixture was built again). */
    forget() {
      lastDigest = undefined;
    },

    async check(request: FuzzRequest, fixture: Fixture): Promise<void> {
      const http = toHttp(request, fixture.pools, fixture.credentials);
      if (deletesOwnCredentials(http, fixture)) {
        tally.skipped++;
        return;
      }
      const operation = `${request.operation.method} ${request.operation.path}`;
      const before = READS.has(http.method) ? undefined : (lastDigest ?? (await digest()));
      const sent = { label: `${http.method} ${request.operation.path}` };
      const logged = serverLog.lines.length;
      const res = await withTimeout(
        serverLog.sending(sent, () =>
          server.app.inject({
            method: http.method as 'GET',
            url: http.url,
            headers: http.headers,
            payload: http.payload,
            remoteAddress: clientAddress(tally.sent),
          }),
        ),
        REQUEST_TIMEOUT_MS,
        `${http.method} ${http.url.slice(0, 200)}`,
      );
      tally.sent++;
      tally.statuses.set(res.statusCode, (tally.statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode < 300) tally.succeeded.add(operation);

      const problems = answerProblems(http.method, http.url, {
        status: res.statusCode,
        headers: res.headers,
        body: res.body,
      });
      // A warning during a request names a check that is missing, even when the answer is right
      // (the database's own refusal, turned into a 400 by the safety net).
      for (const line of serverLog.lines.slice(logged)) {
        if (line.request === sent) problems.push(`the server logged "${line.msg}"`);
      }
      if (before && res.statusCode < 400) lastDigest = undefined;
      // Maintenance mode turned on would refuse every write after it: turned off again at once.
      if (
        request.operation.path === '/api/admin/maintenance' &&
        http.method === 'POST' &&
        res.statusCode < 300
      ) {
        await server.request('POST', '/api/admin/maintenance', {
          token: server.adminToken,
          body: { enabled: false },
        });
        lastDigest = undefined;
      }
      if (before && res.statusCode >= 400) {
        tally.refusedWritesChecked++;
        lastDigest = await digest();
        const changed = changedTables(before, lastDigest);
        if (changed.length)
          problems.push(`refused with ${res.statusCode}, yet it changed: ${changed.join(', ')}`);
      }
      if (problems.length) {
        throw new Error(
          `${problems.join('\n')}\n\nrequest:\n${describeHttp(http)}\n\nanswer ${res.statusCode}: ${clip(res.body)}`,
        );
      }
    },
  };
}
