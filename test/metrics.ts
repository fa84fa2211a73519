import type { Reply, TestServer } from './server.js';

/** A report's bucket: the toggles counted over ten seconds from `start`. */
export function bucket(toggles: object, start = new Date()) {
  return {
    start: start.toISOString(),
    stop: new Date(start.getTime() + 10_000).toISOString(),
    toggles,
  };
}

export function postMetrics(server: TestServer, token: string, body: unknown): Promise<Reply> {
  return server.request('POST', '/api/client/metrics', { token, body });
}

/** E20 as the admin. */
export function rawMetrics(server: TestServer, name: string, query = ''): Promise<Reply> {
  return server.request('GET', `/api/admin/client-metrics/features/${name}/raw${query}`, {
    token: server.adminToken,
  });
}

/** Reads until `ok` holds or `ms` pass; returns the last value read, for the assertion to show. */
export async function eventually<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The start of the current hour, as E20 timestamps it. */
export function currentHour(): string {
  return new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
}
