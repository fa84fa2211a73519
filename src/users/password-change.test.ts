import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { admin } from '../../test/requests.js';
import { createUser, STRONG_PASSWORD, startTestServer, type TestServer } from '../../test/server.js';
import { sleep } from '../../test/time.js';

// scrypt, as it runs for password changes, observed: whether a transaction is open while it runs,
// and, while the test holds a hash back, whether the rest of the server still answers.
const scrypt = vi.hoisted(() => ({
  /** Reports whether the caller is inside a transaction; set while a test watches. */
  probe: null as (() => Promise<boolean>) | null,
  insideTransaction: [] as boolean[],
  /** While set, every hash waits for it, as a very slow hash would. */
  held: null as Promise<void> | null,
  reached: () => {},
}));

vi.mock('./password.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./password.js')>();
  const observe = async () => {
    if (scrypt.probe) scrypt.insideTransaction.push(await scrypt.probe());
  };
  return {
    ...real,
    async verifyPassword(password: string, stored: string | null) {
      await observe();
      return real.verifyPassword(password, stored);
    },
    async hashPassword(password: string, cost: number) {
      await observe();
      scrypt.reached();
      if (scrypt.held) await scrypt.held;
      return real.hashPassword(password, cost);
    },
  };
});

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Inside a transaction the pool refuses to be used (kernel.ts): that is how the probe tells. */
async function insideTransaction(): Promise<boolean> {
  try {
    await server.ctx.db.query('SELECT 1');
    return false;
  } catch (error) {
    if ((error as Error).name === 'TransactionMisuseError') return true;
    throw error;
  }
}

async function watching<T>(work: () => Promise<T>): Promise<{ result: T; runs: boolean[] }> {
  scrypt.insideTransaction = [];
  scrypt.probe = insideTransaction;
  try {
    const result = await work();
    return { result, runs: scrypt.insideTransaction };
  } finally {
    scrypt.probe = null;
  }
}

describe('changing a password', () => {
  it('does not hold other requests back while the new password is hashed', async () => {
    const user = await createUser(server, 3);
    let release = () => {};
    scrypt.held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reached = new Promise<void>((resolve) => {
      scrypt.reached = resolve;
    });
    const password = 'Another-Horse-7';
    const change = server.request('POST', '/api/admin/user/change-password', {
      token: user.pat,
      body: { password, confirmPassword: password, oldPassword: STRONG_PASSWORD },
    });
    try {
      await Promise.race([reached, change.then((r) => Promise.reject(new Error(`ended early: ${r.text}`)))]);
      // The hash is held back now, for as long as this test likes. A request that needs the
      // database must still be answered: the generous limit only matters for a machine that is
      // very slow, since a held hash inside a transaction would block it for good.
      const read = server.request('GET', '/api/admin/user-admin', admin(server));
      const answered = await Promise.race([read.then(() => true), sleep(10_000).then(() => false)]);
      expect(answered, 'a read was held back by the password change').toBe(true);
      expect((await read).status).toBe(200);
    } finally {
      scrypt.held = null;
      release();
    }
    expect((await change).status).toBe(200);
    const login = await server.request('POST', '/auth/simple/login', {
      body: { username: user.username, password },
    });
    expect(login.status).toBe(200);
  });

  it('runs no scrypt inside a transaction: own change, an admin setting it, a reset link', async () => {
    const user = await createUser(server, 3);
    const own = await watching(() =>
      server.request('POST', '/api/admin/user/change-password', {
        token: user.pat,
        body: { password: 'Second-Horse-2', confirmPassword: 'Second-Horse-2', oldPassword: STRONG_PASSWORD },
      }),
    );
    expect(own.result.status, own.result.text).toBe(200);

    const byAdmin = await watching(() =>
      server.request('POST', `/api/admin/user-admin/${user.id}/change-password`, {
        ...admin(server),
        body: { password: 'Third-Horse-3' },
      }),
    );
    expect(byAdmin.result.status, byAdmin.result.text).toBe(200);

    const link = await server.request('POST', '/api/admin/user-admin/reset-password', {
      ...admin(server),
      body: { id: `${user.username}@example.com` },
    });
    const token = new URL(link.body.resetPasswordUrl).searchParams.get('token')!;
    const reset = await watching(() =>
      server.request('POST', '/auth/reset/password', { body: { token, password: 'Fourth-Horse-4' } }),
    );
    expect(reset.result.status, reset.result.text).toBe(200);

    for (const { runs } of [own, byAdmin, reset]) {
      // each compares with the passwords before it, then hashes the new one
      expect(runs.length).toBeGreaterThanOrEqual(2);
      expect(runs.every((inside) => !inside)).toBe(true);
    }
  });
});
