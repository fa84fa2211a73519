import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawMetrics } from '../test/metrics.js';
import { createFeature, createUser, startTestServer, type TestServer } from '../test/server.js';
import { runRetention } from './retention.js';

const clientToken = `default:development.${'c'.repeat(56)}`;
let server: TestServer;
let userId: number;

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: clientToken });
  await createFeature(server, 'aging');
  userId = (await createUser(server)).id;
});
afterAll(() => server.close());

const sql = (text: string, params: unknown[] = []) =>
  server.ctx.db.query<Record<string, unknown>>(text, params);
const column = async (text: string, params: unknown[] = []) =>
  (await sql(text, params)).rows.map((r) => Object.values(r)[0]).sort();

describe('retention', () => {
  it('removes old rows of every kind and keeps recent ones', async () => {
    for (const [app, hoursAgo] of [
      ['old', 49],
      ['recent', 47],
    ] as const) {
      const hour = `date_trunc('hour', now()) - interval '${hoursAgo} hours'`;
      await sql(`INSERT INTO client_metrics_hourly (feature_name, app_name, environment, hour, yes, no)
                 VALUES ('aging', '${app}', 'development', ${hour}, 1, 1)`);
      await sql(`INSERT INTO client_metrics_variants_hourly (feature_name, app_name, environment, hour, variant, count)
                 VALUES ('aging', '${app}', 'development', ${hour}, 'blue', 1)`);
    }
    await sql(
      `INSERT INTO sessions (id_hash, user_id, expires_at) VALUES
         ('expired-long-ago', $1, now() - interval '25 hours'),
         ('expired-lately', $1, now() - interval '1 hour'),
         ('live', $1, now() + interval '1 hour')`,
      [userId],
    );
    await sql(
      `INSERT INTO reset_tokens (token_hash, user_id, expires_at, used_at) VALUES
         ('expired-long-ago', $1, now() - interval '25 hours', NULL),
         ('used-long-ago', $1, now() + interval '1 hour', now() - interval '25 hours'),
         ('expired-lately', $1, now() - interval '1 hour', NULL),
         ('used-lately', $1, now() + interval '1 hour', now() - interval '1 hour'),
         ('live', $1, now() + interval '1 hour', NULL)`,
      [userId],
    );
    await sql(
      `INSERT INTO oidc_logins (state_hash, nonce, code_verifier, redirect, expires_at, used_at) VALUES
         ('expired-long-ago', 'n', 'v', '/', now() - interval '25 hours', NULL),
         ('used-long-ago', 'n', 'v', '/', now() - interval '24 hours 50 minutes', now() - interval '25 hours'),
         ('expired-lately', 'n', 'v', '/', now() - interval '1 hour', NULL),
         ('live', 'n', 'v', '/', now() + interval '10 minutes', NULL)`,
    );
    await sql(`INSERT INTO client_applications (app_name) VALUES ('fleet')`);
    await sql(
      `INSERT INTO client_instances (app_name, instance_id, environment, last_seen) VALUES
         ('fleet', 'gone', 'development', now() - interval '49 hours'),
         ('fleet', 'quiet', 'development', now() - interval '47 hours'),
         ('fleet', 'busy', 'development', now())`,
    );
    // Beyond the newest thousand and old: forgotten; beyond them but recent, or old but among them: kept.
    await sql(`UPDATE config_changes SET created_at = now() - interval '2 hours'`);
    const kept = await column('SELECT revision FROM config_changes');
    expect(kept.length).toBeGreaterThan(0);
    await sql(
      `INSERT INTO config_changes (revision, scopes, created_at) VALUES
         (-5000, '{model}', now() - interval '2 hours'),
         (-4000, '{model}', now() - interval '30 minutes')`,
    );

    await runRetention(server.ctx);

    expect(await column(`SELECT app_name FROM client_metrics_hourly WHERE feature_name = 'aging'`)).toEqual([
      'recent',
    ]);
    expect(
      await column(`SELECT app_name FROM client_metrics_variants_hourly WHERE feature_name = 'aging'`),
    ).toEqual(['recent']);
    expect((await rawMetrics(server, 'aging')).body.data[0]).toMatchObject({ appName: 'recent', yes: 1 });
    expect(await column('SELECT id_hash FROM sessions WHERE user_id = $1', [userId])).toEqual(
      expect.arrayContaining(['expired-lately', 'live']),
    );
    expect(await column('SELECT id_hash FROM sessions WHERE user_id = $1', [userId])).not.toContain(
      'expired-long-ago',
    );
    expect(await column('SELECT token_hash FROM reset_tokens')).toEqual([
      'expired-lately',
      'live',
      'used-lately',
    ]);
    expect(await column('SELECT state_hash FROM oidc_logins')).toEqual(['expired-lately', 'live']);
    const fleet = await server.request('GET', '/api/admin/metrics/applications/fleet', {
      token: server.adminToken,
    });
    expect(fleet.body.instances.map((i: { instanceId: string }) => i.instanceId).sort()).toEqual([
      'busy',
      'quiet',
    ]);
    expect(await column('SELECT revision FROM config_changes')).toEqual([-4000, ...kept].sort());
  });
});

describe('retention of what integrations and unknown flags leave', () => {
  it('forgets unknown flags after 24 hours and finished deliveries after a week, never pending ones', async () => {
    await sql(
      `INSERT INTO unknown_flags (name, app_name, environment, seen_at) VALUES
         ('stale-ghost', 'web', 'development', now() - interval '25 hours'),
         ('fresh-ghost', 'web', 'development', now() - interval '23 hours')`,
    );
    const { rows } = await sql(
      `INSERT INTO addons (provider, secrets, events) VALUES ('webhook', 'plain:{}', '[]') RETURNING id`,
    );
    const event = (await sql('SELECT max(id) AS id FROM events')).rows[0]!.id;
    await sql(
      `INSERT INTO addon_deliveries (addon_id, event_id, state, finished_at, next_attempt_at) VALUES
         ($1, $2, 'success', now() - interval '8 days', now()),
         ($1, $2, 'failed', now() - interval '6 days', now()),
         ($1, $2, 'pending', NULL, now() + interval '1 day')`,
      [rows[0]!.id, event],
    );
    await sql(`UPDATE addon_deliveries SET created_at = now() - interval '9 days'`);

    await runRetention(server.ctx);

    expect(await column('SELECT name FROM unknown_flags')).toEqual(['fresh-ghost']);
    expect(await column('SELECT state FROM addon_deliveries')).toEqual(['failed', 'pending']);
  });
});

describe('retention of jobs', () => {
  it('forgets jobs that ended more than 30 days ago, never waiting ones', async () => {
    await sql(
      `INSERT INTO jobs (kind, key, run_at, state, finished_at) VALUES
         ('retention-test', 'old', now() - interval '40 days', 'done', now() - interval '31 days'),
         ('retention-test', 'recent', now() - interval '40 days', 'failed', now() - interval '29 days'),
         ('retention-test', 'waiting', now() + interval '40 days', 'pending', NULL)`,
    );
    await runRetention(server.ctx);
    expect(await column(`SELECT key FROM jobs WHERE kind = 'retention-test' ORDER BY key`)).toEqual([
      'recent',
      'waiting',
    ]);
  });
});

describe('retention of impact metrics', () => {
  it('forgets minutes after 2 days, hours and unreported series after 183 days', async () => {
    await sql(`INSERT INTO impact_metrics (name, type) VALUES ('aging_total', 'counter')`);
    await sql(
      `INSERT INTO impact_metric_series (metric, labels, labels_key, token, last_seen_at) VALUES
         ('aging_total', '{"a":"live"}', 'live', 't', now()),
         ('aging_total', '{"a":"gone"}', 'gone', 't', now() - interval '184 days')`,
    );
    await sql(
      `INSERT INTO impact_metric_minutes (series_id, at, value)
         SELECT id, now() - d, 1 FROM impact_metric_series, unnest(ARRAY[interval '1 day', interval '3 days']) AS d
          WHERE labels_key = 'live'`,
    );
    await sql(
      `INSERT INTO impact_metric_hours (series_id, at, value)
         SELECT id, now() - d, 1 FROM impact_metric_series, unnest(ARRAY[interval '100 days', interval '190 days']) AS d
          WHERE labels_key = 'live'`,
    );
    await runRetention(server.ctx);
    expect(await column(`SELECT labels_key FROM impact_metric_series`)).toEqual(['live']);
    const ages = (table: string) => column(`SELECT extract(day FROM now() - at)::int FROM ${table}`);
    expect(await ages('impact_metric_minutes')).toEqual([1]);
    expect(await ages('impact_metric_hours')).toEqual([100]);
  });
});

describe('retention of applications and instances SDKs reported', () => {
  const admin = () => ({ token: server.adminToken });
  const application = (appName: string) =>
    server.request('GET', `/api/admin/metrics/applications/${appName}`, admin());
  const register = (appName: string) =>
    server.request('POST', '/api/client/register', {
      token: clientToken,
      body: { appName, instanceId: 'i' },
    });
  const age = (appName: string, days: number) =>
    sql(
      `UPDATE client_applications SET seen_at = now() - make_interval(days => $2),
              created_at = now() - interval '90 days' WHERE app_name = $1`,
      [appName, days],
    );

  it('forgets an application no SDK reported for 30 days, unless an Admin saved it', async () => {
    for (const name of ['sdk-gone', 'sdk-recent', 'sdk-then-admin'])
      expect((await register(name)).status).toBe(202);
    for (const name of ['admin-made', 'sdk-then-admin']) {
      const saved = await server.request('POST', `/api/admin/metrics/applications/${name}`, {
        ...admin(),
        body: { description: 'kept' },
      });
      expect(saved.status).toBe(202);
    }
    await age('sdk-gone', 31);
    await age('sdk-recent', 29);
    await age('sdk-then-admin', 60);
    await sql(
      `UPDATE client_applications SET created_at = now() - interval '60 days' WHERE app_name = 'admin-made'`,
    );

    await runRetention(server.ctx);

    expect((await application('sdk-gone')).status).toBe(404);
    expect(await column(`SELECT instance_id FROM client_instances WHERE app_name = 'sdk-gone'`)).toEqual([]);
    for (const name of ['sdk-recent', 'admin-made', 'sdk-then-admin']) {
      expect((await application(name)).status).toBe(200);
    }
  });
});

describe('retention with SDK_APPLICATION_RETENTION_DAYS and SDK_INSTANCE_RETENTION_HOURS', () => {
  it('forgets applications and instances after the times configured', async () => {
    const short = await startTestServer({
      INIT_CLIENT_API_TOKENS: clientToken,
      SDK_APPLICATION_RETENTION_DAYS: '2',
      SDK_INSTANCE_RETENTION_HOURS: '3',
    });
    try {
      const q = (text: string) => short.ctx.db.query<{ name: string }>(text);
      await q(`INSERT INTO client_applications (app_name, seen_at) VALUES
                 ('two-days', now() - interval '49 hours'), ('one-day', now() - interval '47 hours')`);
      await q(`INSERT INTO client_instances (app_name, instance_id, last_seen) VALUES
                 ('one-day', 'old', now() - interval '4 hours'), ('one-day', 'new', now() - interval '2 hours')`);
      await runRetention(short.ctx);
      expect((await q('SELECT app_name AS name FROM client_applications')).rows).toEqual([
        { name: 'one-day' },
      ]);
      expect((await q('SELECT instance_id AS name FROM client_instances')).rows).toEqual([{ name: 'new' }]);
    } finally {
      await short.close();
    }
  });
});
