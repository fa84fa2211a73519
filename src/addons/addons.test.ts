import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccessServer } from '../../test/access.js';
import { addonHelpers, hook } from '../../test/addons.js';
import { admin } from '../../test/requests.js';
import { lastEvent, type TestServer, type TestUser } from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;

// Loopback is allowed by name only, so 127.0.0.1 itself stays refused.
beforeAll(async () => {
  const fixture = await startAccessServer({ INTEGRATION_ALLOWED_HOSTS: 'localhost, 10.1.2.0/24' });
  ({ server, viewer } = fixture);
});
afterAll(() => server.close());

const { list, create, expectRefused } = addonHelpers(() => server);

const SECRET_AUTH = 'Bearer very-secret-token-81f2';
const SECRET_HEADER = 'header-secret-55aa';

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
      (await server.request('GET', '/api/admin/events?limit=1000', admin(server))).body,
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
      ...admin(server),
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
      ...admin(server),
      body: { provider: 'webhook', enabled: true, parameters: { url: '*****' }, events: [] },
    });
    expect(cleared.body.parameters).toEqual({ url: '*****' });
    const masked = await expectRefused(400, 'ValidationError', () =>
      server.request('PUT', `/api/admin/addons/${id}`, {
        ...admin(server),
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
    const res = await server.request('DELETE', `/api/admin/addons/${id}`, admin(server));
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
      await expectRefused(404, 'NotFoundError', () =>
        server.request(method, path, { ...admin(server), body }),
      );
    }
  });
});
