import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorCode, type OidcFixture, sessionUser, startOidcServer } from '../../test/oidc.js';
import { admin } from '../../test/requests.js';
import { countEvents, STRONG_PASSWORD } from '../../test/server.js';

let f: OidcFixture;

beforeAll(async () => {
  f = await startOidcServer();
});
afterAll(() => f?.close());

beforeEach(async () => {
  await f.saveSettings(f.settings());
});

async function userMadeByAdmin(body: Record<string, unknown>): Promise<number> {
  const res = await f.server.request('POST', '/api/admin/user-admin', {
    ...admin(f.server),
    body: { password: STRONG_PASSWORD, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function refused(subject: string, code: string) {
  const { last, session } = await f.signIn(subject);
  expect(last.status, last.text).toBe(403);
  expect(errorCode(last)).toBe(code);
  expect(session).toBeUndefined();
}

describe('linking a person of the provider to a user', () => {
  it('needs email_verified: a missing claim no longer lands in the account with that address, an Admin’s included', async () => {
    await userMadeByAdmin({ username: 'boss', email: 'boss@example.com', rootRole: 'Admin' });
    f.op.people.set('boss-unverified', { email: 'boss@example.com', name: 'Not the boss' });
    await refused('boss-unverified', 'email-not-verified');
    f.op.people.set('erin', { email: 'erin@example.com', email_verified: false });
    await refused('erin', 'email-not-verified');
  });

  it('binds the provider’s subject on first link: another subject with the same address is refused', async () => {
    const id = await userMadeByAdmin({ username: 'chief', email: 'chief@example.com', rootRole: 'Admin' });
    f.op.people.set('chief', { email: 'chief@example.com', email_verified: true });
    const first = await f.signIn('chief');
    expect((await sessionUser(f.server, first.session)).body.user.id).toBe(id);

    // A second account at the provider that (say, after the first was renamed) has the same address.
    f.op.people.set('chief-2', { email: 'Chief@Example.com', email_verified: true });
    await refused('chief-2', 'account-linked');
    // The bound subject still gets in.
    expect((await sessionUser(f.server, (await f.signIn('chief')).session)).body.user.id).toBe(id);
  });

  it('matches a bound subject afterwards, whatever address the provider then gives', async () => {
    f.op.people.set('gina', { email: 'gina@example.com', email_verified: true, name: 'Gina' });
    const first = await f.signIn('gina');
    const id = (await sessionUser(f.server, first.session)).body.user.id;
    const created = await countEvents(f.server, 'user-created');
    f.op.people.set('gina', { email: 'gina.new@example.com', email_verified: true, name: 'Gina' });
    const again = await f.signIn('gina');
    expect((await sessionUser(f.server, again.session)).body.user.id).toBe(id);
    expect(await countEvents(f.server, 'user-created')).toBe(created);
    // Nobody else can take the old address's account by e-mail now either.
    f.op.people.set('gina-old', { email: 'gina@example.com', email_verified: true });
    await refused('gina-old', 'account-linked');
  });

  it('applies emailDomains to linking an existing user too', async () => {
    await userMadeByAdmin({ username: 'zed', email: 'zed@other.org', rootRole: 'Editor' });
    f.op.people.set('zed', { email: 'zed@other.org', email_verified: true });
    await refused('zed', 'domain-not-allowed');
    await f.saveSettings(f.settings({ emailDomains: '' }));
    const { session } = await f.signIn('zed');
    expect((await sessionUser(f.server, session)).body.user.username).toBe('zed');
  });

  it('requireEmailVerified false lets a missing claim through (an explicit false still not), default true', async () => {
    const read = await f.server.request('GET', '/api/admin/auth/oidc/settings', admin(f.server));
    expect(read.body.requireEmailVerified).toBeUndefined();
    f.op.people.set('hank', { email: 'hank@example.com', name: 'Hank' });
    f.op.people.set('ivy', { email: 'ivy@example.com', email_verified: false });
    await refused('hank', 'email-not-verified');

    await f.saveSettings(f.settings({ requireEmailVerified: false }));
    const saved = await f.server.request('GET', '/api/admin/auth/oidc/settings', admin(f.server));
    expect(saved.body.requireEmailVerified).toBe(false);
    const { session } = await f.signIn('hank');
    expect((await sessionUser(f.server, session)).body.user.email).toBe('hank@example.com');
    await refused('ivy', 'email-not-verified');

    const bad = await f.server.request('POST', '/api/admin/auth/oidc/settings', {
      ...admin(f.server),
      body: f.settings({ requireEmailVerified: 'no' }),
    });
    expect(bad.status).toBe(400);
  });

  it('does not create a user whose address is another user’s username', async () => {
    await userMadeByAdmin({ username: 'kim@example.com', rootRole: 'Viewer' });
    f.op.people.set('kim', { email: 'kim@example.com', email_verified: true });
    const created = await countEvents(f.server, 'user-created');
    await refused('kim', 'no-email');
    expect(await countEvents(f.server, 'user-created')).toBe(created);
  });

  it('a deleted user’s binding goes with them', async () => {
    f.op.people.set('lou', { email: 'lou@example.com', email_verified: true });
    const first = await f.signIn('lou');
    const id = (await sessionUser(f.server, first.session)).body.user.id;
    expect((await f.server.request('DELETE', `/api/admin/user-admin/${id}`, admin(f.server))).status).toBe(
      200,
    );
    const again = await f.signIn('lou');
    const user = (await sessionUser(f.server, again.session)).body.user;
    expect(user.email).toBe('lou@example.com');
    expect(user.id).not.toBe(id);
  });
});
