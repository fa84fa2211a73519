import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../test/receiver.js';
import { admin } from '../../test/requests.js';
import { createFeature, createProject, startTestServer, type TestServer } from '../../test/server.js';

const KEY = 'a'.repeat(64);
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({
    INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
    INTEGRATION_RETRY_DELAY_MS: '50',
    INTEGRATION_TIMEOUT_MS: '2000',
    FLAGPOLE_SECRET_KEY: KEY,
  });
  await createProject(server, 'shop');
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

async function createHook(
  parameters: Record<string, string>,
  rest: Record<string, unknown> = {},
): Promise<number> {
  const res = await server.request('POST', '/api/admin/addons', {
    ...admin(server),
    body: { provider: 'webhook', enabled: true, parameters, events: ['feature-created'], ...rest },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function disable(id: number): Promise<void> {
  const res = await server.request('PUT', `/api/admin/addons/${id}`, {
    ...admin(server),
    body: { provider: 'webhook', enabled: false, parameters: { url: '*****' }, events: [] },
  });
  expect(res.status).toBe(200);
}

/** The integration's recorded deliveries once there are `count` of them. */
async function deliveriesOf(id: number, count: number): Promise<any[]> {
  for (let i = 0; i < 200; i++) {
    const res = await server.request('GET', `/api/admin/addons/${id}/events`, admin(server));
    expect(res.status).toBe(200);
    if (res.body.integrationEvents.length >= count) return res.body.integrationEvents;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`integration ${id} never recorded ${count} deliveries`);
}

describe('webhook deliveries', () => {
  it('sends a matching event with the rendered body and the headers, and records the success', async () => {
    const id = await createHook(
      {
        url: `${receiver.url}/hooks/flags?token=t0k3n`,
        authorization: 'Bearer deliver-secret',
        customHeaders: JSON.stringify({ 'X-Team': 'checkout' }),
        contentType: 'text/plain',
        bodyTemplate:
          '{{event.type}} {{event.featureName}} by {{event.createdBy}} in {{event.project}}: {{event.data.description}}|{{{event.data.description}}}|{{event.nothing.here}}|{{event.constructor}}',
      },
      { projects: ['shop'] },
    );
    const before = receiver.received.length;
    await createFeature(server, 'in-default');
    await createFeature(server, 'checkout-v2', 'shop', { description: 'a <b> & c' });
    await receiver.waitFor(before + 1);
    const [request] = receiver.received.slice(before);
    expect(request).toMatchObject({
      method: 'POST',
      url: '/hooks/flags?token=t0k3n',
      body: 'feature-created checkout-v2 by admin in shop: a &lt;b&gt; &amp; c|a <b> & c||',
    });
    expect(request!.headers).toMatchObject({
      authorization: 'Bearer deliver-secret',
      'x-team': 'checkout',
      'content-type': 'text/plain',
    });
    const [delivery] = await deliveriesOf(id, 1);
    expect(delivery).toEqual({
      id: expect.stringMatching(/^\d+$/),
      integrationId: id,
      createdAt: expect.any(String),
      state: 'success',
      stateDetails: expect.stringContaining('200'),
      event: expect.objectContaining({
        type: 'feature-created',
        featureName: 'checkout-v2',
        project: 'shop',
      }),
      details: {
        url: `${receiver.url}/*****`,
        method: 'POST',
        contentType: 'text/plain',
        headers: ['content-type', 'user-agent', 'authorization', 'x-team'],
        body: request!.body,
        attempts: 1,
        status: 200,
      },
    });
    // The feature of another project was not sent; secrets are nowhere in the record.
    expect(receiver.received.slice(before).map((r) => r.body)).toHaveLength(1);
    expect(JSON.stringify(delivery)).not.toContain('deliver-secret');
    expect(JSON.stringify(delivery)).not.toContain('t0k3n');
    // With FLAGPOLE_SECRET_KEY the secrets are stored encrypted.
    const { rows } = await server.ctx.db.query<{ secrets: string }>(
      'SELECT secrets FROM addons WHERE id = $1',
      [id],
    );
    expect(rows[0]!.secrets).toMatch(/^aes256gcm:/);
    expect(rows[0]!.secrets).not.toContain('deliver-secret');
    await disable(id);
  });

  it('sends the event as JSON without a template, with the method asked for', async () => {
    const id = await createHook(
      { url: `${receiver.url}/json`, method: 'PATCH' },
      { events: ['feature-archived'] },
    );
    await createFeature(server, 'to-archive');
    const before = receiver.received.length;
    await server.request('POST', '/api/admin/projects/default/archive', {
      ...admin(server),
      body: { features: ['to-archive'] },
    });
    await receiver.waitFor(before + 1);
    const request = receiver.received[before]!;
    expect(request.method).toBe('PATCH');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toMatchObject({
      id: expect.any(Number),
      type: 'feature-archived',
      featureName: 'to-archive',
      createdBy: 'admin',
      createdAt: expect.any(String),
    });
    await deliveriesOf(id, 1);
    await disable(id);
  });

  it('tries a failing receiver again with backoff, then records the failure', async () => {
    const failing = await startReceiver([500]);
    try {
      const id = await createHook({ url: `${failing.url}/down` });
      await createFeature(server, 'never-delivered');
      await failing.waitFor(3);
      const [delivery] = await deliveriesOf(id, 1);
      expect(delivery).toMatchObject({
        state: 'failed',
        stateDetails: expect.stringContaining('500 (attempt 3 of 3)'),
        details: { status: 500, attempts: 3 },
      });
      expect(failing.received).toHaveLength(3);
      await disable(id);
    } finally {
      await failing.close();
    }
  });

  it('succeeds on a later attempt after a failure, and does not follow redirects', async () => {
    const flaky = await startReceiver([503, 200]);
    const moved = await startReceiver([302]);
    try {
      const ok = await createHook({ url: flaky.url });
      const redirected = await createHook({ url: moved.url });
      await createFeature(server, 'second-time-lucky');
      await flaky.waitFor(2);
      const [delivered] = await deliveriesOf(ok, 1);
      expect(delivered).toMatchObject({ state: 'success', details: { attempts: 2, status: 200 } });
      const [refused] = await deliveriesOf(redirected, 1);
      expect(refused).toMatchObject({ state: 'failed', stateDetails: expect.stringContaining('redirect') });
      expect(moved.received).toHaveLength(1);
      await disable(ok);
      await disable(redirected);
    } finally {
      await flaky.close();
      await moved.close();
    }
  });

  it('checks the target again when delivering: one no longer allowed is refused, not called', async () => {
    const id = await createHook({ url: `${receiver.url}/later-refused` });
    const refusing = {
      ...server.ctx.config.integrations.allowed,
      ranges: new (await import('node:net')).BlockList(),
    };
    const allowed = server.ctx.config.integrations.allowed;
    server.ctx.config.integrations.allowed = refusing;
    try {
      const before = receiver.received.length;
      await createFeature(server, 'not-to-loopback');
      const [delivery] = await deliveriesOf(id, 1);
      expect(delivery).toMatchObject({ state: 'failed', stateDetails: expect.stringContaining('loopback') });
      expect(receiver.received.length).toBe(before);
    } finally {
      server.ctx.config.integrations.allowed = allowed;
      await disable(id);
    }
  });

  it('queues nothing for a change that is refused, and pages the deliveries newest first', async () => {
    const id = await createHook({ url: `${receiver.url}/paged` });
    const before = receiver.received.length;
    const refused = await server.request('POST', '/api/admin/projects/default/features', {
      ...admin(server),
      body: { name: 'in-default' },
    });
    expect(refused.status).toBe(409);
    await createFeature(server, 'paged-1');
    await createFeature(server, 'paged-2');
    await receiver.waitFor(before + 2);
    const all = await deliveriesOf(id, 2);
    expect(all.map((d) => d.event.featureName)).toEqual(['paged-2', 'paged-1']);
    const page = await server.request(
      'GET',
      `/api/admin/addons/${id}/events?limit=1&offset=1`,
      admin(server),
    );
    expect(page.body.integrationEvents.map((d: any) => d.event.featureName)).toEqual(['paged-1']);
    const { rows } = await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM addon_deliveries WHERE addon_id = $1',
      [id],
    );
    expect(rows[0]!.n).toBe(2);
    await disable(id);
  });

  it('follows an integration as it changes the events it listens to', async () => {
    const id = await createHook({ url: `${receiver.url}/following` });
    await createFeature(server, 'followed-1');
    await deliveriesOf(id, 1);
    const changed = await server.request('PUT', `/api/admin/addons/${id}`, {
      ...admin(server),
      body: {
        provider: 'webhook',
        enabled: true,
        parameters: { url: `${receiver.url}/following` },
        events: ['feature-archived'],
      },
    });
    expect(changed.status, changed.text).toBe(200);
    await createFeature(server, 'followed-2');
    const archived = await server.request(
      'DELETE',
      '/api/admin/projects/default/features/followed-1',
      admin(server),
    );
    expect(archived.status).toBe(202);
    const queued = await server.ctx.db.query<{ type: string; feature: string }>(
      `SELECT e.type, e.feature_name AS feature FROM addon_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.addon_id = $1 ORDER BY d.id`,
      [id],
    );
    expect(queued.rows).toEqual([
      { type: 'feature-created', feature: 'followed-1' },
      { type: 'feature-archived', feature: 'followed-1' },
    ]);
    await disable(id);
  });
});
