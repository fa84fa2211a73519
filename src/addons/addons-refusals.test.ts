import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, startAccessServer } from '../../test/access.js';
import { addonHelpers, hook } from '../../test/addons.js';
import { admin } from '../../test/requests.js';
import { createUser, lastEvent, type TestServer, type TestUser } from '../../test/server.js';

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

const { create, expectRefused } = addonHelpers(() => server);

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
        ...admin(server),
        body: JSON.stringify(hook()),
        contentType: 'text/plain',
      }),
    );
    await expectRefused(400, 'ValidationError', () =>
      server.request('GET', '/api/admin/addons/abc', admin(server)),
    );
  });

  it('refuses a new URL that would inherit the stored secrets; they must be sent again', async () => {
    const made = await create(
      hook({ authorization: 'Bearer kept-secret-1', customHeaders: '{"X-Key":"kept-secret-2"}' }),
      editor.pat,
    );
    expect(made.status).toBe(201);
    const id = made.body.id;
    const moved = await expectRefused(400, 'ValidationError', () =>
      server.request('PUT', `/api/admin/addons/${id}`, {
        token: editor.pat,
        body: hook({ url: 'http://localhost:9/elsewhere', authorization: '*****', customHeaders: '*****' }),
      }),
    );
    expect(moved.body.details).toEqual([
      { path: 'parameters.authorization', message: expect.stringContaining('URL changed') },
      { path: 'parameters.customHeaders', message: expect.stringContaining('URL changed') },
    ]);
    // The same URL, masked or sent as it is, keeps them; a new URL with the secrets sent again is fine.
    for (const url of ['*****', 'http://localhost:9/hook']) {
      const kept = await server.request('PUT', `/api/admin/addons/${id}`, {
        token: editor.pat,
        body: hook({ url, authorization: '*****', customHeaders: '*****' }),
      });
      expect(kept.status, kept.text).toBe(200);
    }
    const resent = await server.request('PUT', `/api/admin/addons/${id}`, {
      token: editor.pat,
      body: hook({ url: 'http://localhost:9/elsewhere', authorization: 'Bearer new-secret' }),
    });
    expect(resent.status, resent.text).toBe(200);
    const { rows } = await server.ctx.db.query<{ secrets: string }>(
      'SELECT secrets FROM addons WHERE id = $1',
      [id],
    );
    expect(JSON.parse(rows[0]!.secrets.slice('plain:'.length))).toEqual({
      url: 'http://localhost:9/elsewhere',
      authorization: 'Bearer new-secret',
    });
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
