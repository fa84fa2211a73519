import { expect } from 'vitest';
import { admin } from './requests.js';
import type { TestServer } from './server.js';
import { inDays } from './time.js';

/** Creates an invite link (a public signup token) as the admin and returns it. */
export async function createSignupToken(server: TestServer, name: string, expiresAt = inDays(7)) {
  const res = await server.request('POST', '/api/admin/invite-link/tokens', {
    ...admin(server),
    body: { name, expiresAt },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
