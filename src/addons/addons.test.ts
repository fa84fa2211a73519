import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, startAccessServer } from '../../test/access.js';
import { countEvents, createUser, lastEvent, type TestServer, type TestUser } from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
let client: string;

// Loopback is allowed by name only, so 127.0.0.1 itself stays refused.
beforeAll(async () => {
  const fixture = await startAccessServer({ INTEGRATION_ALLOWED_HOSTS: 'localhost, 10.1.2.0/24' });
  ({ server, viewer, editor } = fixture);
  client = fixture.credentials.client;
});
afterAll(() => server.close());

const admin = () => ({ token: server.adminToken });
const list = async () => (await server.request('GET', '/api/admin/addons', admin())).body.addons;
const create = (body: unknown, token = server.adminToken) =>
  server.request('POST', '/api/admin/addons', { token, body });

const SECRET_AUTH = 'Bearer very-secret-token-81f2';
const SECRET_HEADER = 'header-secret-55aa';

const hook = (parameters: Record<string, string> = {}, rest: Record<string, unknown> = {}) => ({
  provider: 'webhook',
  enabled: false,
  description: 'to the chat',
  parameters: { url: 'http://localhost:9/hook', ...parameters },
  events: ['feature-created'],
  ...rest,
});

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

describe('integrations: create, read, replace, delete', () => {
  it('lists the webhook provider with its parameters, the sensitive ones marked', async () => {
    const res = await server.request('GET', '/api/admin/addons', { token: viewer.pat });
    expect(res.status).toBe(200);
    const [webhook, ...others] = res.body.providers;
    expect(others).toEqual([]);
    expect(webhook).toMatchObject({
      name: 'webhook',
      displayName: 'Webhook',
      documentationUrl: expect.any(String),
    });
    const sensitive = webhook.parameters.filter((p: any) => p.sensitive).map((p: any) => p.name);
    expect(sensitive).toEqual(['url', 'authorization', 'customHeaders']);
    expect(webhook.parameters.map((p: any) => p.name)).toEqual([
      'url',
      'method',
      'contentType',
      'authorization',
      'customHeaders',
      'bodyTemplate',
    ]);
    expect(webhook.events).toEqual(
      expect.arrayContaining(['feature-created', 'feature-archived', 'addon-config-created']),
    );
  });

  it('creates one (201), masks its secrets in every answer, and records them nowhere', async () => {
    const body = hook(
      {
        authorization: SECRET_AUTH,
        customHeaders: JSON.stringify({ 'X-Key': SECRET_HEADER }),
        bodyTemplate: '{{event.type}}',
        method: 'put',
      },
      { projects: ['default'], environments: ['development'] },
    );
    const res = await create(body);
    expect(res.status, res.text).toBe(201);
    const expected = {
      id: expect.any(Number),
      provider: 'webhook',
      description: 'to the chat',
      enabled: false,
      parameters: {
        url: '*****',
        authorization: '*****',
        customHeaders: '*****',
        bodyTemplate: '{{event.type}}',
        method: 'PUT',
      },
      events: ['feature-created'],
      projects: ['default'],
      environments: ['development'],
      createdAt: expect.any(String),
    };
    expect(res.body).toEqual(expected);
    const one = await server.request('GET', `/api/admin/addons/${res.body.id}`, { token: viewer.pat });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);
    expect(await list()).toContainEqual(res.body);
    const event = await lastEvent(server, 'addon-config-created');
    expect(event).toMatchObject({
      createdBy: 'admin',
      data: { id: res.body.id, provider: 'webhook', enabled: false },
    });
    expect(event.data.parameters).toBeUndefined();
    const everything = JSON.stringify(
      (await server.request('GET', '/api/admin/events?limit=1000', admin())).body,
    );
    for (const secret of [SECRET_AUTH, SECRET_HEADER, 'localhost:9/hook'])
      expect(everything).not.toContain(secret);
    // Without FLAGPOLE_SECRET_KEY the secrets are stored as sent, apart from the other parameters.
    const { rows } = await server.ctx.db.query<{ parameters: object; secrets: string }>(
      'SELECT parameters, secrets FROM addons WHERE id = $1',
      [res.body.id],
    );
    expect(rows[0]!.parameters).toEqual({ bodyTemplate: '{{event.type}}', method: 'PUT' });
    expect(rows[0]!.secrets).toMatch(/^plain:/);
    expect(rows[0]!.secrets).toContain(SECRET_AUTH);
  });

  it('replaces one with PUT: masked secrets keep their value, fields left out go, addon-config-updated', async () => {
    const id = (await create(hook({ authorization: SECRET_AUTH }), server.adminToken)).body.id;
    const res = await server.request('PUT', `/api/admin/addons/${id}`, {
      ...admin(),
      body: {
        provider: 'webhook',
        enabled: true,
        parameters: { url: '*****', authorization: '*****', contentType: 'text/plain' },
        events: ['feature-archived', 'feature-archived'],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id,
      enabled: true,
      description: null,
      parameters: { url: '*****', authorization: '*****', contentType: 'text/plain' },
      events: ['feature-archived'],
      projects: [],
      environments: [],
    });
    const { rows } = await server.ctx.db.query<{ secrets: string }>(
      'SELECT secrets FROM addons WHERE id = $1',
      [id],
    );
    expect(JSON.parse(rows[0]!.secrets.slice('plain:'.length))).toEqual({
      url: 'http://localhost:9/hook',
      authorization: SECRET_AUTH,
    });
    const event = await lastEvent(server, 'addon-config-updated');
    expect(event.data).toMatchObject({ id, enabled: true, events: ['feature-archived'] });
    expect(event.preData).toMatchObject({ id, enabled: false, events: ['feature-created'] });
    expect(JSON.stringify(event)).not.toContain(SECRET_AUTH);

    // Left out, a secret is removed; masked without a stored value, it is refused.
    const cleared = await server.request('PUT', `/api/admin/addons/${id}`, {
      ...admin(),
      body: { provider: 'webhook', enabled: true, parameters: { url: '*****' }, events: [] },
    });
    expect(cleared.body.parameters).toEqual({ url: '*****' });
    const masked = await expectRefused(400, 'ValidationError', () =>
      server.request('PUT', `/api/admin/addons/${id}`, {
        ...admin(),
        body: {
          provider: 'webhook',
          enabled: true,
          parameters: { url: '*****', authorization: '*****' },
          events: [],
        },
      }),
    );
    expect(masked.body.details).toEqual([
      { path: 'parameters.authorization', message: expect.stringContaining('*****') },
    ]);
  });

  it('deletes one (200), addon-config-deleted with what it was; then 404 everywhere', async () => {
    const id = (await create(hook())).body.id;
    const res = await server.request('DELETE', `/api/admin/addons/${id}`, admin());
    expect(res.status).toBe(200);
    expect(await lastEvent(server, 'addon-config-deleted')).toMatchObject({
      data: null,
      preData: { id, provider: 'webhook' },
    });
    for (const [method, path, body] of [
      ['GET', `/api/admin/addons/${id}`, undefined],
      ['GET', `/api/admin/addons/${id}/events`, undefined],
      ['PUT', `/api/admin/addons/${id}`, hook()],
      ['DELETE', `/api/admin/addons/${id}`, undefined],
    ] as const) {
      await expectRefused(404, 'NotFoundError', () => server.request(method, path, { ...admin(), body }));
    }
  });
});

describe('integrations: refusals', () => {
  it('refuses targets inside the network at save time (400), unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://192.168.1.10/',
      'http://[fd00::1]/',
      'http://224.0.0.1/',
      'http://2130706433/',
    ]) {
      const res = await expectRefused(400, 'ValidationError', () => create(hook({ url })));
      expect(res.body.details, url).toEqual([
        { path: 'parameters.url', message: expect.stringContaining('INTEGRATION_ALLOWED_HOSTS') },
      ]);
    }
    // Allowed by the operator: a name (loopback behind it) and a range.
    expect((await create(hook({ url: 'http://LOCALHOST:8080/' }))).status).toBe(201);
    expect((await create(hook({ url: 'http://10.1.2.3/' }))).status).toBe(201);
  });

  it('refuses a name that resolves to loopback when the name is not listed', async () => {
    const bare = await startAccessServer();
    try {
      const res = await bare.server.request('POST', '/api/admin/addons', {
        token: bare.server.adminToken,
        body: hook({ url: 'http://localhost:8080/hook' }),
      });
      expect(res.status).toBe(400);
      expect(res.body.details[0].message).toMatch(/resolves to 127\.0\.0\.1, which is loopback/);
    } finally {
      await bare.server.close();
    }
  });

  it('refuses bad bodies and parameters (400), naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ ...hook(), provider: 'slack' }, 'provider'],
      [{ ...hook(), parameters: {} }, 'parameters.url'],
      [hook({ url: 'not a url' }), 'parameters.url'],
      [hook({ url: 'ftp://example.com/' }), 'parameters.url'],
      [hook({ url: 'http://nonexistent-host.invalid/' }), 'parameters.url'],
      [hook({ color: 'red' }), 'parameters.color'],
      [hook({ method: 'GET' }), 'parameters.method'],
      [hook({ authorization: 'a\r\nX-Injected: 1' }), 'parameters.authorization'],
      [hook({ customHeaders: 'not json' }), 'parameters.customHeaders'],
      [hook({ customHeaders: '["a"]' }), 'parameters.customHeaders'],
      [hook({ customHeaders: '{"Host": "evil"}' }), 'parameters.customHeaders'],
      [hook({ customHeaders: '{"X-A": 1}' }), 'parameters.customHeaders'],
      [hook({ customHeaders: '{"bad name": "v"}' }), 'parameters.customHeaders'],
      [{ ...hook(), events: ['no-such-event'] }, 'events'],
      [{ ...hook(), enabled: 'yes' }, 'enabled'],
      [{ ...hook(), events: undefined }, 'events'],
      [{ ...hook(), parameters: { url: 5 } }, 'parameters.url'],
      [{ ...hook(), projects: [''] }, 'projects.0'],
    ];
    for (const [body, path] of cases) {
      const res = await expectRefused(400, 'ValidationError', () => create(body));
      expect(
        res.body.details.map((d: any) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    // A secret never comes back in an error.
    const res = await create(hook({ customHeaders: '{"X-A": 1, "X-B": "s3cr3t-value"}' }));
    expect(res.text).not.toContain('s3cr3t-value');
  });

  it('answers 401 without credentials, 403 without the permission, 415 without JSON', async () => {
    const id = (await create(hook())).body.id;
    await expectRefused(401, 'AuthenticationRequired', () =>
      server.request('POST', '/api/admin/addons', { body: hook() }),
    );
    await expectRefused(401, 'AuthenticationRequired', () => server.request('GET', '/api/admin/addons'));
    await expectRefused(403, 'NoAccessError', () => create(hook(), viewer.pat));
    await expectRefused(403, 'NoAccessError', () => create(hook(), client));
    await expectRefused(403, 'NoAccessError', () =>
      server.request('PUT', `/api/admin/addons/${id}`, { token: viewer.pat, body: hook() }),
    );
    await expectRefused(403, 'NoAccessError', () =>
      server.request('DELETE', `/api/admin/addons/${id}`, { token: viewer.pat }),
    );
    // Deliveries show what was sent: Admins only.
    await expectRefused(403, 'NoAccessError', () =>
      server.request('GET', `/api/admin/addons/${id}/events`, { token: editor.pat }),
    );
    await expectRefused(415, 'ContentTypeError', () =>
      server.request('POST', '/api/admin/addons', {
        ...admin(),
        body: JSON.stringify(hook()),
        contentType: 'text/plain',
      }),
    );
    await expectRefused(400, 'ValidationError', () =>
      server.request('GET', '/api/admin/addons/abc', admin()),
    );
  });

  it('lets Editors and custom roles holding CREATE/UPDATE/DELETE_ADDON manage them', async () => {
    const made = await create(hook(), editor.pat);
    expect(made.status).toBe(201);
    expect((await lastEvent(server, 'addon-config-created')).createdBy).toBe(editor.username);
    const role = await createRole(server, {
      name: 'Integrator',
      type: 'root-custom',
      permissions: [{ name: 'UPDATE_ADDON' }],
    });
    const integrator = await createUser(server, role);
    const put = await server.request('PUT', `/api/admin/addons/${made.body.id}`, {
      token: integrator.pat,
      body: hook({ url: '*****' }, { enabled: true }),
    });
    expect(put.status, put.text).toBe(200);
    await expectRefused(403, 'NoAccessError', () => create(hook(), integrator.pat));
    await expectRefused(403, 'NoAccessError', () =>
      server.request('DELETE', `/api/admin/addons/${made.body.id}`, { token: integrator.pat }),
    );
    expect(
      (await server.request('DELETE', `/api/admin/addons/${made.body.id}`, { token: editor.pat })).status,
    ).toBe(200);
  });
});
