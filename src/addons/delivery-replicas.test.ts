import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../test/receiver.js';
import {
  createFeature,
  isPostgres,
  type Replica,
  startReplica,
  startTestServer,
  type TestServer,
} from '../../test/server.js';

describe.runIf(isPostgres())('webhook deliveries with several processes', () => {
  let server: TestServer;
  let replica: Replica;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({
      INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
      INTEGRATION_RETRY_DELAY_MS: '50',
    });
    replica = await startReplica(server);
  });
  afterAll(async () => {
    await replica.close();
    await server.close();
    await receiver.close();
  });

  /** A webhook to the receiver, created through the first process. */
  const createWebhook = (events: string[]) =>
    server.request('POST', '/api/admin/addons', {
      token: server.adminToken,
      body: { provider: 'webhook', enabled: true, parameters: { url: receiver.url }, events },
    });

  it('delivers each event once, whichever process takes it', async () => {
    const res = await createWebhook(['feature-created']);
    expect(res.status).toBe(201);
    const names = Array.from({ length: 12 }, (_, i) => `shared-${i}`);
    // Half the changes through each process: both queue, both deliver.
    await Promise.all(
      names.map((name, i) =>
        i % 2 === 0
          ? createFeature(server, name)
          : replica
              .request('POST', '/api/admin/projects/default/features', {
                token: server.adminToken,
                body: { name },
              })
              .then((r) => expect(r.status).toBe(201)),
      ),
    );
    await receiver.waitFor(names.length);
    await new Promise((r) => setTimeout(r, 1500));
    const delivered = receiver.received.map((r) => JSON.parse(r.body).featureName).sort();
    expect(delivered).toEqual([...names].sort());
    const { rows } = await server.ctx.db.query<{ state: string; attempts: number }>(
      'SELECT state, attempts FROM addon_deliveries WHERE addon_id = $1',
      [res.body.id],
    );
    expect(rows).toHaveLength(names.length);
    expect(rows.every((r) => r.state === 'success' && r.attempts === 1)).toBe(true);
  });

  it('queues the events of a process whose caches have not heard of the integration yet', async () => {
    // The replica's caches stay where they are: as if the integration's notification were late.
    await replica.ctx.sync.stop();
    const addon = await createWebhook(['feature-metadata-updated']);
    expect(addon.status).toBe(201);
    const before = receiver.received.length;
    const res = await replica.request('PATCH', '/api/admin/projects/default/features/shared-0', {
      token: server.adminToken,
      body: [{ op: 'replace', path: '/description', value: 'heard' }],
    });
    expect(res.status).toBe(200);
    await receiver.waitFor(before + 1);
    const last = JSON.parse(receiver.received.at(-1)!.body);
    expect([last.type, last.featureName]).toEqual(['feature-metadata-updated', 'shared-0']);
  });
});
