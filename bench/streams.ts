// `npm run bench -- --streams N`: holds N idle SDK streams (`GET /api/client/streaming`) on one
// Flagpole and reports the memory each costs and how long a change takes to reach all of them.
import http from 'node:http';

export interface StreamsReport {
  streams: number;
  openSeconds: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  /** From sending each change to its arrival on every stream (ms). */
  fanOut: { p50: number; p99: number; max: number; missed: number }[];
}

interface Held {
  connected: Promise<void>;
  /** When the next `unleash-updated` arrived (performance.now()), reset before each change. */
  updatedAt: number | undefined;
  request: http.ClientRequest;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function hold(url: string, token: string, agent: http.Agent): Held {
  const held: Held = { connected: Promise.resolve(), updatedAt: undefined, request: undefined as never };
  held.connected = new Promise((resolve, reject) => {
    held.request = http.get(
      `${url}/api/client/streaming`,
      { agent, headers: { authorization: token } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`a stream was answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (chunk.includes('event: unleash-connected')) resolve();
          if (chunk.includes('event: unleash-updated') && held.updatedAt === undefined) {
            held.updatedAt = performance.now();
          }
        });
      },
    );
    held.request.on('error', reject);
  });
  return held;
}

export async function streamsBench(options: {
  url: string;
  adminToken: string;
  streams: number;
  rss: () => number;
  call: (method: string, path: string, body?: unknown) => Promise<unknown>;
}): Promise<StreamsReport> {
  const { url, call } = options;
  const token = (
    (await call('POST', '/api/admin/api-tokens', {
      tokenName: 'stream-bench',
      type: 'client',
      environment: 'development',
      projects: ['*'],
    })) as { secret: string }
  ).secret;
  await call('POST', '/api/admin/projects/default/features', { name: 'stream-bench' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const rssBeforeMiB = options.rss();
  const started = performance.now();
  const held: Held[] = [];
  // In batches, so that opening them does not measure the listen queue.
  for (let i = 0; i < options.streams; i += 500) {
    const batch = Array.from({ length: Math.min(500, options.streams - i) }, () => hold(url, token, agent));
    held.push(...batch);
    await Promise.all(batch.map((h) => h.connected));
  }
  const openSeconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 3000));
  const rssAfterMiB = options.rss();

  const fanOut: StreamsReport['fanOut'] = [];
  for (let round = 0; round < 3; round++) {
    for (const h of held) h.updatedAt = undefined;
    const sent = performance.now();
    const action = round % 2 === 0 ? 'on' : 'off';
    await call(
      'POST',
      `/api/admin/projects/default/features/stream-bench/environments/development/${action}`,
    );
    const deadline = sent + 10_000;
    while (held.some((h) => h.updatedAt === undefined) && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const times = held
      .filter((h) => h.updatedAt !== undefined)
      .map((h) => h.updatedAt! - sent)
      .sort((a, b) => a - b);
    fanOut.push({
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      max: times.at(-1) ?? Number.NaN,
      missed: held.length - times.length,
    });
    await new Promise((r) => setTimeout(r, 500));
  }
  for (const h of held) h.request.destroy();
  agent.destroy();
  return { streams: options.streams, openSeconds, rssBeforeMiB, rssAfterMiB, fanOut };
}

export function printStreamsReport(r: StreamsReport, backend: string): void {
  const perStream = ((r.rssAfterMiB - r.rssBeforeMiB) * 1024) / r.streams;
  console.log(`\nSDK streams — ${backend}: ${r.streams} streams opened in ${r.openSeconds.toFixed(1)} s`);
  console.log(
    `RSS ${r.rssBeforeMiB.toFixed(0)} MiB before, ${r.rssAfterMiB.toFixed(0)} MiB with them: ${perStream.toFixed(1)} KiB a stream`,
  );
  for (const [i, f] of r.fanOut.entries()) {
    console.log(
      `change ${i + 1}: on every stream in p50 ${f.p50.toFixed(0)} ms, p99 ${f.p99.toFixed(0)} ms, max ${f.max.toFixed(0)} ms` +
        (f.missed ? `, ${f.missed} streams missed it` : ''),
    );
  }
}
