import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Credentials, expectAdminOnly } from '../../test/access.js';
import { errorCode, type OidcFixture, startOidcServer } from '../../test/oidc.js';
import { admin } from '../../test/requests.js';
import {
  countEvents,
  createUser,
  isPostgres,
  lastEvent,
  login,
  startReplica,
  type TestUser,
} from '../../test/server.js';
import { SecretBox } from '../secrets.js';

let f: OidcFixture;
let credentials: Credentials;
let viewer: TestUser;
const SIMPLE = '/api/admin/auth/simple/settings';
const OIDC = '/api/admin/auth/oidc/settings';
const SIGN_IN_OPTION = { type: 'oidc', message: 'Sign in with OpenID Connect', path: '/auth/oidc/login' };

beforeAll(async () => {
  f = await startOidcServer();
  viewer = await createUser(f.server, 3);
  const editor = await createUser(f.server, 2);
  const client = await f.server.request('POST', '/api/admin/api-tokens', {
    token: f.server.adminToken,
    body: { tokenName: 'sdk', type: 'client', environment: 'development' },
  });
  credentials = { viewer: viewer.pat, editor: editor.pat, client: client.body.secret };
});
afterAll(() => f?.close());

async function settingEvents(): Promise<number> {
  return (await countEvents(f.server, 'setting-created')) + (await countEvents(f.server, 'setting-updated'));
}

describe('what a 401 tells a sign-in page', () => {
  it('how to sign in, to a caller without credentials: the password form and, when on, OpenID Connect', async () => {
    await f.saveSettings(f.settings({ enabled: false }));
    const res = await f.server.request('GET', '/api/admin/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'AuthenticationRequired',
      message: expect.any(String),
      path: '/auth/simple/login',
      type: 'password',
      defaultHidden: false,
      options: [],
    });
    await f.saveSettings(f.settings());
    for (const url of ['/api/admin/user', '/api/admin/no-such-path', '/api/admin/projects/%FF']) {
      const now = await f.server.request('GET', url);
      expect(now.status, url).toBe(401);
      expect(now.body.options, url).toEqual([SIGN_IN_OPTION]);
    }
    // Credentials that name nobody, or a wrong password: the plain error body.
    const bad = await f.server.request('GET', '/api/admin/user', { token: 'garbage' });
    expect(Object.keys(bad.body).sort()).toEqual(['id', 'message', 'name']);
    const wrong = await login(f.server, 'admin', 'not the password');
    expect(wrong.status).toBe(401);
    expect(Object.keys(wrong.body).sort()).toEqual(['id', 'message', 'name']);
  });
});

describe('turning password sign-in off', () => {
  it('is for Admins only, and checks its body', async () => {
    expect((await f.server.request('GET', SIMPLE, admin(f.server))).body).toEqual({ disabled: false });
    await expectAdminOnly(f.server, 'GET', SIMPLE, credentials);
    await expectAdminOnly(f.server, 'POST', SIMPLE, credentials, { disabled: false });
    for (const body of [{}, { disabled: 'yes' }, { disabled: null }]) {
      const res = await f.server.request('POST', SIMPLE, { ...admin(f.server), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.name).toBe('ValidationError');
    }
  });

  it('is refused while OpenID Connect is off or its provider does not answer: nobody could sign in', async () => {
    const events = await settingEvents();
    for (const oidc of [
      f.settings({ enabled: false }),
      f.settings({ discoverUrl: 'http://127.0.0.1:9/.well-known/openid-configuration' }),
    ]) {
      await f.saveSettings(oidc);
      const before = await settingEvents();
      const res = await f.server.request('POST', SIMPLE, { ...admin(f.server), body: { disabled: true } });
      expect(res.status).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      expect(res.body.details[0].path).toBe('disabled');
      expect(res.body.message).toMatch(oidc.enabled ? /did not answer discovery/ : /not enabled/);
      expect(await settingEvents()).toBe(before);
    }
    expect(await settingEvents()).toBe(events + 2);
    expect((await f.server.request('GET', SIMPLE, admin(f.server))).body).toEqual({ disabled: false });
    expect((await login(f.server, viewer.username, viewer.password)).status).toBe(200);
  });

  it('with OpenID Connect working: password sign-in refused, tokens and OIDC still in, OIDC kept working', async () => {
    await f.saveSettings(f.settings());
    const off = await f.server.request('POST', SIMPLE, { ...admin(f.server), body: { disabled: true } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ disabled: true });
    const created = await lastEvent(f.server, 'setting-created');
    expect(created.data).toEqual({ id: 'unleash.auth.simple', disabled: true });
    expect((await f.server.request('GET', SIMPLE, admin(f.server))).body).toEqual({ disabled: true });
    expect((await f.server.request('GET', '/api/admin/user')).body.defaultHidden).toBe(true);

    const refused = await login(f.server, viewer.username, viewer.password);
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe('NoAccessError');
    expect(refused.body.message).toContain('/auth/oidc/login');
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await f.server.request('GET', '/api/admin/user', { token: viewer.pat })).status).toBe(200);
    expect((await f.server.request('GET', '/api/admin/projects', admin(f.server))).status).toBe(200);
    expect((await f.signIn('alice')).session).toBeDefined();

    // OIDC is now the way in: settings that would not work are refused, and nothing changes.
    const events = await settingEvents();
    for (const broken of [
      f.settings({ enabled: false }),
      f.settings({ discoverUrl: 'http://127.0.0.1:9/.well-known/openid-configuration' }),
    ]) {
      const res = await f.server.request('POST', OIDC, { ...admin(f.server), body: broken });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Password sign-in is turned off');
    }
    expect(await settingEvents()).toBe(events);
    expect((await f.server.request('GET', OIDC, admin(f.server))).body).toEqual(f.settings());
    await f.saveSettings(f.settings({ emailDomains: 'example.org' }));

    const on = await f.server.request('POST', SIMPLE, { ...admin(f.server), body: { disabled: false } });
    expect(on.status).toBe(200);
    const updated = await lastEvent(f.server, 'setting-updated');
    expect(updated.data).toEqual({ id: 'unleash.auth.simple', disabled: false });
    expect(updated.preData).toEqual({ disabled: true });
    expect((await login(f.server, viewer.username, viewer.password)).status).toBe(200);
    expect((await f.server.request('GET', '/api/admin/user')).body.defaultHidden).toBe(false);
  });
});

describe('E6 the client secret', () => {
  it('is stored sealed with FLAGPOLE_SECRET_KEY, shown to Admins, never in events or logs', async () => {
    await f.saveSettings(f.settings());
    const { rows } = await f.server.ctx.db.query<{ content: unknown }>(
      "SELECT content FROM settings WHERE name = 'unleash.enterprise.auth.oidc'",
    );
    const stored = JSON.stringify(rows[0]!.content);
    expect(stored).not.toContain(f.op.clientSecret);
    expect(stored).toContain('"sealedSecret":"aes256gcm:');
    expect((await f.server.request('GET', OIDC, admin(f.server))).body.secret).toBe(f.op.clientSecret);
    const events = await f.server.request('GET', '/api/admin/events?type=setting-updated', admin(f.server));
    expect(events.body.events.length).toBeGreaterThan(0);
    expect(events.text).not.toContain(f.op.clientSecret);
    expect((await f.signIn('alice')).session).toBeDefined();
    expect(f.logLines.join('\n')).not.toContain(f.op.clientSecret);
  });

  it('sealed with another key: the settings show without it, and sign-in says it cannot be read', async () => {
    await f.saveSettings(f.settings());
    const box = f.server.ctx.secrets;
    // As after a restart with another FLAGPOLE_SECRET_KEY.
    f.server.ctx.secrets = new SecretBox(randomBytes(32));
    try {
      const read = await f.server.request('GET', OIDC, admin(f.server));
      expect(read.status).toBe(200);
      expect(read.body.secret).toBeUndefined();
      expect(read.body.clientId).toBe(f.op.clientId);
      const { last } = await f.signIn('alice');
      expect(last.status).toBe(500);
      expect(errorCode(last)).toBe('secret-unreadable');
      const off = await f.server.request('POST', SIMPLE, { ...admin(f.server), body: { disabled: true } });
      expect(off.status).toBe(400);
      expect(off.body.message).toContain('cannot be read');
    } finally {
      f.server.ctx.secrets = box;
    }
  });
});

describe.runIf(isPostgres())('on several replicas', () => {
  it('a change made through one counts at the next sign-in on another, and its 401s follow', async () => {
    await f.saveSettings(f.settings());
    const replica = await startReplica(f.server);
    try {
      const res = await replica.request('POST', OIDC, {
        ...admin(f.server),
        body: f.settings({ enabled: false }),
      });
      expect(res.status).toBe(200);
      const { last } = await f.signIn('alice');
      expect(errorCode(last)).toBe('oidc-disabled');
      const deadline = Date.now() + 3000;
      while ((await f.server.request('GET', '/api/admin/user')).body.options.length > 0) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await replica.request('POST', OIDC, { ...admin(f.server), body: f.settings() })).status).toBe(
        200,
      );
      expect((await f.signIn('alice')).session).toBeDefined();
      expect(
        (await replica.request('POST', SIMPLE, { ...admin(f.server), body: { disabled: true } })).status,
      ).toBe(200);
      expect((await login(f.server, viewer.username, viewer.password)).status).toBe(403);
      expect(
        (await replica.request('POST', SIMPLE, { ...admin(f.server), body: { disabled: false } })).status,
      ).toBe(200);
    } finally {
      await replica.close();
    }
  });
});
