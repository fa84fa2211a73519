import { expect } from 'vitest';
import type { Reply, RequestOptions, TestServer } from './server.js';

// Requests as the admin token, the caller of most tests.

/** The options that send a request as the admin token: `server.request('GET', url, admin(server))`. */
export function admin(server: TestServer): RequestOptions {
  return { token: server.adminToken };
}

/** Sends as the admin token. */
export function asAdmin(server: TestServer, method: string, url: string, body?: unknown): Promise<Reply> {
  return server.request(method, url, { token: server.adminToken, body });
}

/** Sends as the admin token and expects the status. */
export async function expectStatus(
  server: TestServer,
  status: number,
  method: string,
  url: string,
  body?: unknown,
): Promise<Reply> {
  const res = await asAdmin(server, method, url, body);
  expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
  return res;
}

/** Sends a request with a JSON body as a token: the admin's unless another is given. */
export function send(
  server: TestServer,
  method: string,
  url: string,
  body?: unknown,
  token = server.adminToken,
): Promise<Reply> {
  return server.request(method, url, { token, body });
}
