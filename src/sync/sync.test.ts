import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import {
  createUser,
  isPostgres,
  type Replica,
  startReplica,
  startTestServer,
  type TestServer,
} from '../../test/server.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';
import { recordEvent } from '../events/service.js';
import { setEnvironmentEnabled } from '../features/environments/store.js';
import { SYSTEM_ACTOR } from '../http/identity.js';

const clientToken = `default:development.${'c'.repeat(56)}`;

function wait(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

async function servedEnabled(target: Pick<TestServer, 'request'>, feature: string) {
  const res = await target.request('GET', '/api/client/features', { token: clientToken });
  if (res.status !== 200) throw new Error(`SDK answer ${res.status}: ${res.text}`);
  return res.body.features.find((f: { name: string }) => f.name === feature)?.enabled as boolean | undefined;
}

/** Polls until `check` holds; answers how long that took (ms), or fails after `limitMs`. */
async function until(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await wait(10);
  }
  return Date.now() - started;
}

async function enabledFeature(server: TestServer, name: string) {
  const f = flags(server);
  await f.create(name);
  await f.enable(name, 'development');
}

describe('the configuration revision', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
  });
  afterAll(() => server?.close());

  it('moves with every change of the configuration, and not with what SDKs do', async () => {
    const before = server.ctx.sync.revision;
    const registered = await server.request('POST', '/api/client/register', {
      token: clientToken,
      body: {
        appName: 'quiet',
        instanceId: 'i-1',
        strategies: [],
        started: new Date().toISOString(),
        interval: 1000,
      },
    });
    expect(registered.status).toBe(202);
    expect(server.ctx.sync.revision).toBe(before);
    await flags(server).create('moves-it');
    expect(server.ctx.sync.revision).toBe(before + 1);
  });

  it("has this process's caches hold a change before its answer leaves", async () => {
    await flags(server).create('read-your-writes');
    for (const enabled of [true, false, true]) {
      const res = await server.request(
        'POST',
        `/api/admin/projects/default/features/read-your-writes/environments/development/${enabled ? 'on' : 'off'}`,
        { token: server.adminToken },
      );
      expect(res.status).toBe(200);
      expect(await servedEnabled(server, 'read-your-writes')).toBe(enabled);
    }
  });

  it('answers /ready with the revision served and the database reachable', async () => {
    const res = await server.request('GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      health: 'READY',
      database: 'reachable',
      revision: server.ctx.sync.revision,
    });
    expect(res.body.snapshotAgeMs).toBeGreaterThanOrEqual(0);
  });
});

describe.runIf(isPostgres())('replicas on one PostgreSQL', () => {
  let server: TestServer;
  let replica: Replica;
  beforeAll(async () => {
    server = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
    replica = await startReplica(server);
  });
  afterAll(async () => {
    await replica?.close();
    await server?.close();
  });

  it('serve a change that commits after a later one, on every replica, within a second', async () => {
    await enabledFeature(server, 'kill-switch');
    await until(async () => (await servedEnabled(replica, 'kill-switch')) === true, 3000);

    // Transaction A switches the flag off and records its event, then waits; meanwhile a later
    // change B commits through the other replica. A commits last.
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered!: () => void;
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    const a = server.ctx.db.transaction(async (tx) => {
      await setEnvironmentEnabled(tx, 'kill-switch', 'development', false);
      recordEvent(tx, SYSTEM_ACTOR, {
        type: 'feature-environment-disabled',
        project: 'default',
        featureName: 'kill-switch',
        environment: 'development',
        data: { enabled: false },
      });
      entered();
      await gate;
    });
    await inside;
    const b = await replica.request('POST', '/api/admin/projects/default/features', {
      token: server.adminToken,
      body: { name: 'committed-first' },
    });
    expect(b.status).toBe(201);
    for (const target of [server, replica]) {
      await until(async () => (await servedEnabled(target, 'committed-first')) === false, 3000);
    }
    release();
    await a;
    for (const target of [server, replica]) {
      const took = await until(async () => (await servedEnabled(target, 'kill-switch')) === false, 3000);
      expect(took).toBeLessThan(1000);
    }
  });

  it('stop accepting a revoked token, and honour a changed grant, at once here and within a second there', async () => {
    const made = await server.request('POST', '/api/admin/api-tokens', {
      token: server.adminToken,
      body: { tokenName: 'short-lived', type: 'client', environment: 'development' },
    });
    expect(made.status).toBe(201);
    const sdk = (target: Pick<TestServer, 'request'>) =>
      target.request('GET', '/api/client/features', { token: made.body.secret });
    await until(async () => (await sdk(replica)).status === 200, 3000);
    expect((await sdk(server)).status).toBe(200);
    const removed = await server.request('DELETE', `/api/admin/api-tokens/${made.body.id}`, {
      token: server.adminToken,
    });
    expect(removed.status).toBe(200);
    expect((await sdk(server)).status).toBe(401);
    expect(await until(async () => (await sdk(replica)).status === 401, 3000)).toBeLessThan(1000);

    const editor = await createUser(server, 2);
    const create = (target: Pick<TestServer, 'request'>, name: string) =>
      target.request('POST', '/api/admin/projects/default/features', { token: editor.pat, body: { name } });
    expect((await create(replica, 'by-an-editor')).status).toBe(201);
    const demoted = await server.request('PUT', `/api/admin/user-admin/${editor.id}`, {
      token: server.adminToken,
      body: { rootRole: 3 },
    });
    expect(demoted.status).toBe(200);
    expect((await create(server, 'refused-here')).status).toBe(403);
    let n = 0;
    const took = await until(
      async () => (await create(replica, `refused-there-${n++}`)).status === 403,
      3000,
    );
    expect(took).toBeLessThan(1000);
  });

  it('keep answering SDKs from memory while the database cannot answer, then catch up', async () => {
    await enabledFeature(server, 'held-back');
    await until(async () => (await servedEnabled(replica, 'held-back')) === true, 3000);
    // A table every reload reads is locked: a change commits, the replicas learn of it, and
    // cannot read it until the lock goes.
    const locker = new pg.Client({ connectionString: server.database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE feature_tags IN ACCESS EXCLUSIVE MODE');
      await server.ctx.db.transaction(async (tx) => {
        await setEnvironmentEnabled(tx, 'held-back', 'development', false);
        recordEvent(tx, SYSTEM_ACTOR, {
          type: 'feature-environment-disabled',
          project: 'default',
          featureName: 'held-back',
          environment: 'development',
          data: { enabled: false },
        });
      });
      await wait(300);
      for (let i = 0; i < 20; i++) {
        const started = Date.now();
        expect(await servedEnabled(replica, 'held-back')).toBe(true);
        expect(Date.now() - started).toBeLessThan(250);
      }
      await locker.query('COMMIT');
    } finally {
      await locker.end();
    }
    await until(async () => (await servedEnabled(replica, 'held-back')) === false, 3000);
  });

  it('keep serving the last flags while the database is away, and recover by themselves', async () => {
    const url = new URL(server.database.url!);
    let proxy: TcpProxy | undefined;
    let behind: Replica | undefined;
    try {
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.host = `127.0.0.1:${proxy.port}`;
      behind = await startReplica(server, url.toString());
      await enabledFeature(server, 'outage');
      await until(async () => (await servedEnabled(behind!, 'outage')) === true, 3000);

      proxy.cut();
      await flags(server).disable('outage', 'development');
      await wait(1500);
      for (let i = 0; i < 10; i++) expect(await servedEnabled(behind, 'outage')).toBe(true);
      const ready = await behind.request('GET', '/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ health: 'READY', database: 'unreachable' });
      const refused = await behind.request('POST', '/api/admin/projects/default/features', {
        token: server.adminToken,
        body: { name: 'while-away' },
      });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ name: 'ServiceUnavailableError' });

      proxy.restore();
      await until(async () => (await servedEnabled(behind!, 'outage')) === false, 5000);
      expect((await behind.request('GET', '/ready')).body.database).toBe('reachable');
    } finally {
      await behind?.close();
      await proxy?.close();
    }
  });
});
