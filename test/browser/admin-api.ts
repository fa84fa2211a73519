import type { TestServer } from '../server.js';

/**
 * The admin API with the admin token, for what a test sets up and reads back around the browser:
 * each call must succeed (a refusal fails the test with the server's answer).
 */
export function adminApi(server: TestServer) {
  async function send<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await server.request<T>(method, path, { token: server.adminToken, body });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res.body;
  }
  return {
    get: <T = any>(path: string) => send<T>('GET', path),
    send,
  };
}
