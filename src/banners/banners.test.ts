import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, startAccessServer } from '../../test/access.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, lastEvent, type TestServer, type TestUser } from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
let client: string;

beforeAll(async () => {
  const fixture = await startAccessServer();
  ({ server, viewer, editor } = fixture);
  client = fixture.credentials.client;
});
afterAll(() => server.close());

const list = async () => (await server.request('GET', '/api/admin/banners', admin(server))).body.banners;
const create = (body: unknown, token = server.adminToken) =>
  server.request('POST', '/api/admin/banners', { token, body });
const put = (id: number | string, body: unknown, options: { token?: string; contentType?: string } = {}) =>
  server.request('PUT', `/api/admin/banners/${id}`, {
    token: 'token' in options ? options.token : server.adminToken,
    body: options.contentType === 'text/plain' ? JSON.stringify(body) : body,
    contentType: options.contentType,
  });

/** A refused request: its status and error name, and neither the banners nor the event log moved. */
async function expectRefused(
  status: number,
  name: string,
  send: () => Promise<{ status: number; body: any }>,
) {
  const before = await list();
  const events = await countEvents(server);
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ id: expect.any(String), name, message: expect.any(String) });
  expect(await list()).toEqual(before);
  expect(await countEvents(server)).toBe(events);
  return res;
}

const DEFAULTS = {
  enabled: true,
  variant: 'info',
  sticky: false,
  icon: null,
  link: null,
  linkText: null,
  dialogTitle: null,
  dialog: null,
};

describe('POST and GET /api/admin/banners', () => {
  it('creates a banner with the defaults: 201, read back by any user, banner-created', async () => {
    expect(await list()).toEqual([]);
    const res = await create({ message: 'Maintenance **tonight**' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      message: 'Maintenance **tonight**',
      ...DEFAULTS,
      createdAt: expect.any(String),
    });
    expect(res.headers.location).toBe(`banners/${res.body.id}`);
    const read = await server.request('GET', '/api/admin/banners', { token: viewer.pat });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ banners: [res.body] });
    expect(await lastEvent(server, 'banner-created')).toMatchObject({ createdBy: 'admin', data: res.body });
  });

  it('keeps every field sent', async () => {
    const body = {
      message: 'New release',
      enabled: false,
      variant: 'success',
      sticky: true,
      icon: 'celebration',
      link: 'https://example.com/release-notes',
      linkText: 'Read the notes',
      dialogTitle: 'Notes',
      dialog: '# Notes',
    };
    const res = await create(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), ...body, createdAt: expect.any(String) });
  });

  it('gives each new banner a higher id, never one of a deleted banner', async () => {
    const a = (await create({ message: 'a' })).body.id;
    const b = (await create({ message: 'b' })).body.id;
    expect(b).toBeGreaterThan(a);
    expect((await server.request('DELETE', `/api/admin/banners/${b}`, admin(server))).status).toBe(200);
    const c = (await create({ message: 'c' })).body.id;
    expect(c).toBeGreaterThan(b);
    expect((await list()).map((x: { id: number }) => x.id)).not.toContain(b);
  });

  it('accepts absolute, relative and dialog links and refuses others (400, nothing created)', async () => {
    for (const link of [
      'dialog',
      'http://example.com',
      'https://example.com/a?b=c#d',
      '/docs',
      'docs/page',
      '?tab=2',
      '#top',
    ]) {
      const res = await create({ message: 'link', link });
      expect(res.status, link).toBe(201);
      expect(res.body.link).toBe(link);
    }
    for (const link of [
      'javascript:alert(1)',
      'ftp://example.com',
      'mailto:a@b.c',
      'has space',
      '',
      'https://',
    ]) {
      const res = await expectRefused(400, 'ValidationError', () => create({ message: 'link', link }));
      expect(res.body.details).toEqual([{ path: 'link', message: expect.stringContaining('link') }]);
    }
  });

  it('refuses a body without a message, or with wrong types (400)', async () => {
    for (const body of [
      {},
      { message: '' },
      { message: 5 },
      { message: 'x', variant: 'danger' },
      { message: 'x', enabled: 'yes' },
      { message: 'x', sticky: 1 },
      { message: 'x', icon: 3 },
      { message: 'x', dialog: ['a'] },
    ]) {
      await expectRefused(400, 'ValidationError', () => create(body));
    }
  });

  it('is for Admins and custom root roles holding UPDATE_INSTANCE_BANNERS only', async () => {
    await expectRefused(403, 'NoAccessError', () => create({ message: 'by editor' }, editor.pat));
    await expectRefused(403, 'NoAccessError', () => create({ message: 'by viewer' }, viewer.pat));
    await expectRefused(403, 'NoAccessError', () => create({ message: 'by client' }, client));
    await expectRefused(401, 'AuthenticationRequired', () =>
      server.request('POST', '/api/admin/banners', { body: { message: 'anonymous' } }),
    );
    const role = await createRole(server, {
      name: 'Banner keeper',
      type: 'root-custom',
      permissions: [{ name: 'UPDATE_INSTANCE_BANNERS' }],
    });
    const keeper = await createUser(server, role);
    const made = await create({ message: 'by keeper' }, keeper.pat);
    expect(made.status).toBe(201);
    expect((await put(made.body.id, { message: 'changed by keeper' }, { token: keeper.pat })).status).toBe(
      200,
    );
    expect((await lastEvent(server, 'banner-updated')).createdBy).toBe(keeper.username);
    expect((await server.request('GET', '/api/admin/banners', { token: client })).status).toBe(403);
    expect((await server.request('GET', '/api/admin/banners')).status).toBe(401);
  });
});

describe('E1 PUT /api/admin/banners/:id', () => {
  let banner: any;
  beforeAll(async () => {
    banner = (
      await create({
        message: 'Before',
        enabled: false,
        variant: 'warning',
        sticky: true,
        icon: 'build',
        link: 'dialog',
        linkText: 'Why',
        dialogTitle: 'Why?',
        dialog: 'Because',
      })
    ).body;
  });

  it('replaces the fields: 200 with the whole banner, omitted fields at their defaults, id and createdAt kept', async () => {
    const res = await put(banner.id, { message: 'After', variant: 'error', link: '/status' });
    expect(res.status).toBe(200);
    const after = { ...banner, ...DEFAULTS, message: 'After', variant: 'error', link: '/status' };
    expect(res.body).toEqual(after);
    expect((await list()).find((b: { id: number }) => b.id === banner.id)).toEqual(after);
    const event = await lastEvent(server, 'banner-updated');
    expect(event).toMatchObject({ createdBy: 'admin', data: after, preData: banner });
    banner = after;
  });

  it('answers a PUT that changes nothing without a write or an event', async () => {
    const events = await countEvents(server, 'banner-updated');
    const res = await put(banner.id, { message: banner.message, variant: banner.variant, link: banner.link });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(banner);
    expect(await countEvents(server, 'banner-updated')).toBe(events);
  });

  it('ignores an id and createdAt sent back in the body', async () => {
    const res = await put(banner.id, {
      ...banner,
      id: 999,
      createdAt: '2000-01-01T00:00:00.000Z',
      message: 'Again',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...banner, message: 'Again' });
    banner = res.body;
  });

  it('answers 401, 403, 415, 400 and 404 in that order, changing nothing', async () => {
    const bad = { message: '', variant: 'purple' };
    await expectRefused(401, 'AuthenticationRequired', () => put(banner.id, bad, { token: undefined }));
    await expectRefused(401, 'AuthenticationRequired', () => put(banner.id, bad, { token: '*:*.nope' }));
    await expectRefused(403, 'NoAccessError', () =>
      put(banner.id, bad, { token: viewer.pat, contentType: 'text/plain' }),
    );
    await expectRefused(403, 'NoAccessError', () => put(banner.id, { message: 'ok' }, { token: editor.pat }));
    await expectRefused(403, 'NoAccessError', () => put(banner.id, { message: 'ok' }, { token: client }));
    await expectRefused(415, 'ContentTypeError', () =>
      put(banner.id, { message: 'ok' }, { contentType: 'text/plain' }),
    );
    await expectRefused(415, 'ContentTypeError', () => put('no-such', bad, { contentType: 'text/plain' }));
    const invalid = await expectRefused(400, 'ValidationError', () => put(banner.id, bad));
    expect(invalid.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['message', 'variant']);
    await expectRefused(400, 'ValidationError', () =>
      put(banner.id, { message: 'x', link: 'javascript:void(0)' }),
    );
    await expectRefused(400, 'ValidationError', () => put(999_999, bad));
    await expectRefused(400, 'ValidationError', () => put('abc', { message: 'ok' }));
    await expectRefused(400, 'ValidationError', () => put('1.5', { message: 'ok' }));
    await expectRefused(400, 'ValidationError', () => put(banner.id, '{"message": '));
    const missing = await expectRefused(404, 'NotFoundError', () => put(999_999, { message: 'ok' }));
    expect(missing.body.message).toContain('999999');
  });
});

describe('showing, hiding and deleting', () => {
  it('on and off switch enabled with a banner-updated event, only when it changes', async () => {
    const { id } = (await create({ message: 'toggle', enabled: false })).body;
    const enabled = async () => (await list()).find((b: { id: number }) => b.id === id).enabled;
    const events = await countEvents(server, 'banner-updated');
    expect((await server.request('POST', `/api/admin/banners/${id}/on`, admin(server))).status).toBe(200);
    expect(await enabled()).toBe(true);
    expect(await lastEvent(server, 'banner-updated')).toMatchObject({
      data: { id, enabled: true },
      preData: { id, enabled: false },
    });
    expect((await server.request('POST', `/api/admin/banners/${id}/on`, admin(server))).status).toBe(200);
    expect(await countEvents(server, 'banner-updated')).toBe(events + 1);
    expect((await server.request('POST', `/api/admin/banners/${id}/off`, admin(server))).status).toBe(200);
    expect(await enabled()).toBe(false);
    await expectRefused(403, 'NoAccessError', () =>
      server.request('POST', `/api/admin/banners/${id}/on`, { token: editor.pat }),
    );
    await expectRefused(404, 'NotFoundError', () =>
      server.request('POST', '/api/admin/banners/999999/off', admin(server)),
    );
  });

  it('DELETE removes a banner with banner-deleted; a second DELETE is 404', async () => {
    const made = (await create({ message: 'short-lived' })).body;
    await expectRefused(403, 'NoAccessError', () =>
      server.request('DELETE', `/api/admin/banners/${made.id}`, { token: viewer.pat }),
    );
    expect((await server.request('DELETE', `/api/admin/banners/${made.id}`, admin(server))).status).toBe(200);
    expect((await list()).map((b: { id: number }) => b.id)).not.toContain(made.id);
    expect(await lastEvent(server, 'banner-deleted')).toMatchObject({ preData: made });
    await expectRefused(404, 'NotFoundError', () =>
      server.request('DELETE', `/api/admin/banners/${made.id}`, admin(server)),
    );
  });
});
