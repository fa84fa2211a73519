import { expect } from 'vitest';
import { countEvents, type TestServer } from './server.js';

/** A webhook body (disabled, to a loopback name the tests allow), with parameters and fields replaced. */
export const hook = (parameters: Record<string, string> = {}, rest: Record<string, unknown> = {}) => ({
  provider: 'webhook',
  enabled: false,
  description: 'to the chat',
  parameters: { url: 'http://localhost:9/hook', ...parameters },
  events: ['feature-created'],
  ...rest,
});

/** Helpers bound to a server: the integrations, making one, and checking a refusal changed nothing. */
export function addonHelpers(server: () => TestServer) {
  const list = async () =>
    (await server().request('GET', '/api/admin/addons', { token: server().adminToken })).body.addons;
  const create = (body: unknown, token = server().adminToken) =>
    server().request('POST', '/api/admin/addons', { token, body });
  async function expectRefused(
    status: number,
    name: string,
    send: () => Promise<{ status: number; body: any }>,
  ) {
    const before = await list();
    const events = await countEvents(server());
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ id: expect.any(String), name, message: expect.any(String) });
    expect(await list()).toEqual(before);
    expect(await countEvents(server())).toBe(events);
    return res;
  }
  return { list, create, expectRefused };
}
