import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An HTTP server on loopback that records what it receives, for the integrations' tests: each
 * request is answered with the next of `statuses` (the last one repeats).
 */
export async function startReceiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  let answers = [...statuses];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = answers.length > 1 ? answers.shift()! : answers[0]!;
      response.writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/' } : {});
      response.end('ok');
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    answer(next: number[]) {
      answers = [...next];
    },
    /** Resolves once `count` requests in all have arrived; fails after `ms`. */
    waitFor(count: number, ms = 5000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`received ${received.length} of ${count} requests`)),
          ms,
        );
        waiting.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
