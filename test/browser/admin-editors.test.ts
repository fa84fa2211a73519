import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../server.js';
import { inDays } from '../time.js';
import { adminApi } from './admin-api.js';
import { signIn, startUi, type UiHarness } from './ui.js';

// The administration's editors (roles, groups, users, project access, banners, API tokens, invite
// links, single sign-on): each is opened on an object made through the API with every field set, one
// visible field is changed and saved, and the object read back must differ by that field only.
let ui: UiHarness;
let page: Page;
let api: ReturnType<typeof adminApi>;
beforeAll(async () => {
  ui = await startUi();
  api = adminApi(ui.server);
  page = await ui.newPage();
  await signIn(page);
});
afterAll(() => ui?.close());

describe('the role editor', () => {
  it('keeps the kind and every permission, environment ones included', async () => {
    const made = await api.send('POST', '/api/admin/roles', {
      name: 'Kept releaser',
      description: 'Releases flags',
      type: 'custom',
      permissions: [
        { name: 'CREATE_FEATURE' },
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
        { name: 'UPDATE_FEATURE_STRATEGY', environment: 'development' },
      ],
    });
    const id = made.roles.id;
    const before = await api.get(`/api/admin/roles/${id}`);

    await page.goto(`/admin/roles/${id}`);
    await page.getByLabel('Description', { exact: true }).fill('Releases flags to production');
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.waitForURL('**/admin/roles');

    expect(await api.get(`/api/admin/roles/${id}`)).toEqual({
      ...before,
      description: 'Releases flags to production',
    });
  });
});

describe('the group editor', () => {
  it('keeps the single sign-on mappings, the root role and the members', async () => {
    const [ann, bob] = [await createUser(ui.server), await createUser(ui.server)];
    const made = await api.send('POST', '/api/admin/groups', {
      name: 'kept-ops',
      description: 'On call',
      mappingsSSO: ['ops', 'oncall'],
      rootRole: 2,
      users: [{ user: { id: ann.id } }, { user: { id: bob.id } }],
    });
    const before = await api.get(`/api/admin/groups/${made.id}`);

    await page.goto(`/admin/groups/${made.id}`);
    await page.getByLabel('Description', { exact: true }).fill('On call this week');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.waitForURL('**/admin/groups');

    expect(await api.get(`/api/admin/groups/${made.id}`)).toEqual({
      ...before,
      description: 'On call this week',
    });
  });
});

describe("a user's root role", () => {
  it('changes alone once confirmed, and says so: name, email and username stay', async () => {
    const user = await createUser(ui.server, 3);
    const before = await api.get(`/api/admin/user-admin/${user.id}`);

    await page.goto('/admin/users');
    const choice = page.getByLabel(`Root role of ${user.username}`);
    const dialog = page.getByRole('dialog');
    // It was saved the moment the list changed, with nothing asked and nothing said.
    await choice.selectOption({ label: 'Editor' });
    await dialog.getByRole('heading', { name: /Editor\?$/ }).waitFor();
    expect(await dialog.textContent()).toContain('is Viewer now');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => choice.inputValue()).toBe('3');
    expect(await api.get(`/api/admin/user-admin/${user.id}`)).toEqual(before);

    await choice.selectOption({ label: 'Editor' });
    await dialog.getByRole('button', { name: 'Make Editor' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Saved: .* is Editor now\./ })
      .waitFor();
    expect(await api.get(`/api/admin/user-admin/${user.id}`)).toEqual({ ...before, rootRole: 2 });
    expect(await choice.inputValue()).toBe('2');
  });
});

describe("a project member's roles", () => {
  it('gain the role checked and keep the others', async () => {
    const user = await createUser(ui.server);
    const access = await api.get('/api/admin/projects/default/access');
    const roleId = (name: string) => access.roles.find((r: { name: string }) => r.name === name).id;
    const releaser = await api.send('POST', '/api/admin/roles', {
      name: 'Member releaser',
      type: 'custom',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' }],
    });
    await api.send('POST', '/api/admin/projects/default/access', {
      roles: [roleId('Member'), releaser.roles.id],
      users: [user.id],
      groups: [],
    });
    const rolesOf = async () => {
      const users: { id: number; roles: number[] }[] = (await api.get('/api/admin/projects/default/access'))
        .users;
      return [...users.find((u) => u.id === user.id)!.roles].sort((a, b) => a - b);
    };
    const before = await rolesOf();

    await page.goto('/projects/default/access');
    // The box is checked once the server has answered and the list is read again: click, then wait.
    await page.getByRole('row').filter({ hasText: user.username }).getByLabel('Owner').click();

    const expected = [...before, roleId('Owner')].sort((a, b) => a - b);
    await expect.poll(rolesOf).toEqual(expected);
  });
});

describe('the banner editor', () => {
  it('keeps the dialog it does not show while the link is not the dialog', async () => {
    const made = await api.send('POST', '/api/admin/banners', {
      message: 'Maintenance tonight',
      variant: 'warning',
      enabled: false,
      sticky: true,
      icon: 'build',
      link: 'https://status.example.com',
      linkText: 'Status page',
      dialogTitle: 'What changes',
      dialog: '**Nothing** for you to do.',
    });
    const bannerOf = async () =>
      (await api.get('/api/admin/banners')).banners.find((b: { id: number }) => b.id === made.id);
    const before = await bannerOf();

    await page.goto('/admin/banners');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Message').fill('Maintenance tomorrow');
    await page.getByRole('button', { name: 'Save banner' }).click();

    await expect.poll(async () => (await bannerOf()).message).toBe('Maintenance tomorrow');
    expect(await bannerOf()).toEqual({ ...before, message: 'Maintenance tomorrow' });
  });
});

describe("an API token's expiry", () => {
  it('changes alone: name, type, projects and environment stay', async () => {
    await api.send('POST', '/api/admin/api-tokens', {
      tokenName: 'kept-client',
      type: 'client',
      projects: ['default'],
      environment: 'production',
      expiresAt: inDays(10),
    });
    const tokenOf = async () =>
      (await api.get('/api/admin/api-tokens')).tokens.find(
        (t: { tokenName: string }) => t.tokenName === 'kept-client',
      );
    const before = await tokenOf();

    await page.goto('/admin/api-tokens');
    await page.getByRole('button', { name: 'Change the expiry of kept-client' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await expect.poll(async () => (await tokenOf()).expiresAt).not.toBe(before.expiresAt);
    const after = await tokenOf();
    expect(after).toEqual({ ...before, expiresAt: after.expiresAt });
  });
});

describe('an invite link', () => {
  it('turned off keeps its name and expiry', async () => {
    const made = await api.send('POST', '/api/admin/invite-link/tokens', {
      name: 'kept-invite',
      expiresAt: inDays(5),
    });
    const path = `/api/admin/invite-link/tokens/${made.secret}`;
    const before = await api.get(path);

    await page.goto('/admin/invite-links');
    await page.getByRole('button', { name: 'Turn off kept-invite' }).click();

    await expect.poll(async () => (await api.get(path)).enabled).toBe(false);
    expect(await api.get(path)).toEqual({ ...before, enabled: false });
  });
});

describe('the single sign-on settings', () => {
  it('keep every setting when one is changed', async () => {
    const settings = '/api/admin/auth/oidc/settings';
    await api.send('POST', settings, {
      enabled: false,
      discoverUrl: 'https://login.example.com/.well-known/openid-configuration',
      clientId: 'flagpole',
      secret: 'kept-secret',
      autoCreate: true,
      enableSingleSignOut: true,
      defaultRootRole: 'Editor',
      emailDomains: 'example.com, example.org',
      acrValues: 'mfa',
      idTokenSigningAlgorithm: 'RS384',
    });
    const before = await api.get(settings);

    await page.goto('/admin/oidc');
    await page.getByLabel('Client id').fill('flagpole-admin');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    expect(await api.get(settings)).toEqual({ ...before, clientId: 'flagpole-admin' });
  });
});
