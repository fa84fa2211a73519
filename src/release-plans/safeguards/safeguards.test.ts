import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventsAbout,
  featureEnvironment,
  PRODUCTION_CLIENT_TOKEN,
  projectMember,
} from '../../../test/feature-ops.js';
import { asAdmin, expectStatus, send } from '../../../test/requests.js';
import {
  createFeature,
  isPostgres,
  lastEvent,
  startReplica,
  startTestServer,
  type TestServer,
  writeDirectly,
} from '../../../test/server.js';

let server: TestServer;
let templateId: string;

const ENV = (flag: string) => `/api/admin/projects/default/features/${flag}/environments/production`;
const PLANS = (flag: string) => `${ENV(flag)}/release-plans`;

beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: PRODUCTION_CLIENT_TOKEN,
    SAFEGUARD_CHECK_INTERVAL_MS: '200',
  });
  const template = await expectStatus(server, 200, 'POST', '/api/admin/release-plan-templates', {
    name: 'Gradual',
    milestones: [
      {
        name: 'Some',
        sortOrder: 0,
        strategies: [
          { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: '' } },
        ],
      },
      { name: 'All', sortOrder: 1, strategies: [{ name: 'default' }] },
    ],
  });
  templateId = template.body.id;
});
afterAll(() => server.close());

/** Sends impact metrics as an SDK does. */
async function measured(
  name: string,
  type: 'counter' | 'gauge',
  value: number,
  labels = { appName: 'shop' },
) {
  const res = await send(
    server,
    'POST',
    '/api/client/metrics',
    { appName: 'shop', impactMetrics: [{ name, help: name, type, samples: [{ labels, value }] }] },
    PRODUCTION_CLIENT_TOKEN,
  );
  expect(res.status, res.text).toBe(202);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const planOf = async (flag: string) => (await expectStatus(server, 200, 'GET', PLANS(flag))).body[0];
const errorsOverFive = {
  impactMetric: {
    metricName: 'errors',
    timeRange: 'hour',
    aggregationMode: 'count',
    labelSelectors: { appName: ['shop'] },
  },
  triggerCondition: { operator: '>', threshold: 5 },
};

describe('a release plan safeguard', () => {
  it('pauses the plan’s progressions once, when its metric passes the threshold; resuming re-arms it', async () => {
    await createFeature(server, 'checkout');
    await expectStatus(server, 200, 'POST', `${ENV('checkout')}/on`);
    const plan = (await expectStatus(server, 200, 'POST', PLANS('checkout'), { templateId })).body;
    const [first, second] = plan.milestones;
    await expectStatus(server, 200, 'PUT', `${ENV('checkout')}/progressions/${first.id}`, {
      targetMilestone: second.id,
      transitionCondition: { intervalMinutes: 5 },
    });
    await expectStatus(server, 204, 'PUT', `${PLANS('checkout')}/${plan.id}/safeguards`, errorsOverFive);
    const [safeguard] = (await planOf('checkout')).safeguards;
    const flag = (await expectStatus(server, 200, 'GET', '/api/admin/projects/default/features/checkout'))
      .body;
    const production = flag.environments.find((e: any) => e.name === 'production');
    expect(production.releasePlans[0].safeguards).toEqual([safeguard]);
    expect(production.safeguards).toEqual([]);
    expect(safeguard).toEqual({
      id: expect.any(String),
      action: { type: 'pauseReleasePlanProgressions', id: plan.id },
      triggerCondition: { operator: '>', threshold: 5 },
      impactMetric: { id: expect.any(String), ...errorsOverFive.impactMetric, source: 'internal' },
      triggeredAt: null,
    });
    expect(await lastEvent(server, 'safeguard-changed')).toMatchObject({
      project: 'default',
      featureName: 'checkout',
      environment: 'production',
      data: { id: safeguard.id },
    });
    // Its query is a chart of the flag that only the safeguard changes.
    const charts = '/api/admin/projects/default/features/checkout/impact-metrics/config';
    const [chart] = (await expectStatus(server, 200, 'GET', charts)).body.configs;
    expect(chart).toMatchObject({ id: safeguard.impactMetric.id, metricName: 'errors', mode: 'read' });
    expect((await asAdmin(server, 'DELETE', `${charts}/${chart.id}`)).status).toBe(400);

    await measured('errors', 'counter', 3);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await planOf('checkout')).safeguards[0].triggeredAt).toBeNull();
    await measured('errors', 'counter', 4, { appName: 'other' }); // not selected
    await measured('errors', 'counter', 4);
    const tripped = await until(
      () => planOf('checkout'),
      (p) => p.safeguards[0].triggeredAt !== null,
    );
    expect(tripped.safeguards[0].triggeredAt).toEqual(expect.any(String));
    expect(tripped.milestones.every((m: any) => m.pausedAt !== null)).toBe(true);
    expect(tripped.activeMilestoneId).toBe(first.id);
    expect(await lastEvent(server, 'safeguard-triggered')).toMatchObject({
      createdBy: 'system',
      featureName: 'checkout',
      data: { id: safeguard.id, value: 7 },
    });
    expect(await lastEvent(server, 'release-plan-progressions-paused')).toMatchObject({
      featureName: 'checkout',
      data: { id: plan.id },
    });
    // The progression, due now, does not run while paused.
    await writeDirectly(
      server,
      `UPDATE jobs SET run_at = now() WHERE kind = 'milestone-progression' AND state = 'pending'`,
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect((await planOf('checkout')).activeMilestoneId).toBe(first.id);
    expect(await eventsAbout(server, 'checkout', 'safeguard-triggered')).toHaveLength(1);

    // Resumed, it watches again from then: the errors that tripped it do not trip it again.
    await expectStatus(server, 200, 'POST', `${ENV('checkout')}/progressions/${plan.id}/resume`);
    const rearmed = await until(
      () => planOf('checkout'),
      (p) => p.safeguards[0].triggeredAt === null,
    );
    expect(rearmed.safeguards[0].triggeredAt).toBeNull();
    await new Promise((r) => setTimeout(r, 800));
    expect(await eventsAbout(server, 'checkout', 'safeguard-triggered')).toHaveLength(1);

    await expectStatus(server, 204, 'DELETE', `${PLANS('checkout')}/${plan.id}/safeguards/${safeguard.id}`);
    expect((await planOf('checkout')).safeguards).toEqual([]);
    expect((await expectStatus(server, 200, 'GET', charts)).body.configs).toEqual([]);
    expect(await lastEvent(server, 'safeguard-deleted')).toMatchObject({ preData: { id: safeguard.id } });
    expect(
      (await asAdmin(server, 'DELETE', `${PLANS('checkout')}/${plan.id}/safeguards/${safeguard.id}`)).status,
    ).toBe(404);
  });

  it('is refused when malformed, on a plan that is not there, or to a caller without the permission', async () => {
    await createFeature(server, 'guarded');
    const plan = (await expectStatus(server, 200, 'POST', PLANS('guarded'), { templateId })).body;
    const url = `${PLANS('guarded')}/${plan.id}/safeguards`;
    const bad = await asAdmin(server, 'PUT', url, {
      ...errorsOverFive,
      triggerCondition: { operator: '>=', threshold: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
    // errors is a counter: it is counted, not averaged.
    const wrongMode = await asAdmin(server, 'PUT', url, {
      ...errorsOverFive,
      impactMetric: { ...errorsOverFive.impactMetric, aggregationMode: 'avg' },
    });
    expect(wrongMode.status).toBe(400);
    expect((await asAdmin(server, 'PUT', `${PLANS('guarded')}/nope/safeguards`, errorsOverFive)).status).toBe(
      404,
    );
    const viewer = await projectMember(server, 'default', [
      { name: 'UPDATE_FEATURE_STRATEGY', environment: 'development' },
    ]);
    expect((await send(server, 'PUT', url, errorsOverFive, viewer.pat)).status).toBe(403);
    expect((await planOf('guarded')).safeguards).toEqual([]);
  });
});

describe('a flag environment safeguard', () => {
  const slow = {
    impactMetric: { metricName: 'latency', timeRange: 'hour', aggregationMode: 'avg', labelSelectors: {} },
    triggerCondition: { operator: '>', threshold: 100 },
  };

  it('switches the flag off there when its metric passes the threshold, once; switched on again, it watches again', async () => {
    await createFeature(server, 'search');
    await expectStatus(server, 200, 'POST', `${ENV('search')}/on`);
    await expectStatus(server, 204, 'PUT', `${ENV('search')}/safeguards`, slow);
    const [safeguard] = (await featureEnvironment(server, 'search', 'production')).safeguards;
    const flag = (await expectStatus(server, 200, 'GET', '/api/admin/projects/default/features/search')).body;
    expect(flag.environments.find((e: any) => e.name === 'production').safeguards).toEqual([safeguard]);
    expect(safeguard).toMatchObject({
      action: {
        type: 'disableFeatureEnvironment',
        featureName: 'search',
        environment: 'production',
        project: 'default',
      },
      triggerCondition: slow.triggerCondition,
      triggeredAt: null,
    });
    await measured('latency', 'gauge', 50);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await featureEnvironment(server, 'search', 'production')).enabled).toBe(true);

    await measured('latency', 'gauge', 500);
    const off = await until(
      () => featureEnvironment(server, 'search', 'production'),
      (e) => !e.enabled,
    );
    expect(off.enabled).toBe(false);
    expect(off.safeguards[0].triggeredAt).toEqual(expect.any(String));
    expect(await lastEvent(server, 'feature-environment-disabled')).toMatchObject({
      createdBy: 'system',
      featureName: 'search',
      environment: 'production',
    });
    const sdk = await send(server, 'GET', '/api/client/features', undefined, PRODUCTION_CLIENT_TOKEN);
    expect(sdk.body.features.find((f: any) => f.name === 'search').enabled).toBe(false);

    await expectStatus(server, 200, 'POST', `${ENV('search')}/on`);
    const rearmed = await until(
      () => featureEnvironment(server, 'search', 'production'),
      (e) => e.safeguards[0].triggeredAt === null,
    );
    expect(rearmed.enabled).toBe(true);
    await new Promise((r) => setTimeout(r, 800));
    expect((await featureEnvironment(server, 'search', 'production')).enabled).toBe(true);
    expect(await eventsAbout(server, 'search', 'safeguard-triggered')).toHaveLength(1);

    // Changed, it is replaced in place (one per flag environment).
    await expectStatus(server, 204, 'PUT', `${ENV('search')}/safeguards`, {
      ...slow,
      triggerCondition: { operator: '<', threshold: 1 },
    });
    const [changed] = (await featureEnvironment(server, 'search', 'production')).safeguards;
    expect(changed).toMatchObject({ id: safeguard.id, triggerCondition: { operator: '<', threshold: 1 } });
    await expectStatus(server, 204, 'DELETE', `${ENV('search')}/safeguards/${safeguard.id}`);
    expect((await featureEnvironment(server, 'search', 'production')).safeguards).toEqual([]);
  });

  it('is a change request change where the environment takes them', async () => {
    await createFeature(server, 'guarded-env');
    await expectStatus(
      server,
      200,
      'PUT',
      '/api/admin/projects/default/environments/production/change-requests/config',
      {
        changeRequestsEnabled: true,
        requiredApprovals: 1,
      },
    );
    try {
      const member = await projectMember(server, 'default', [
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
      ]);
      const direct = await send(server, 'PUT', `${ENV('guarded-env')}/safeguards`, slow, member.pat);
      expect(direct.status).toBe(403);
      expect(direct.body.message).toContain('SKIP_CHANGE_REQUEST');
      const drafted = await send(
        server,
        'POST',
        '/api/admin/projects/default/environments/production/change-requests',
        { feature: 'guarded-env', action: 'changeFeatureEnvSafeguard', payload: { safeguard: slow } },
        member.pat,
      );
      expect(drafted.status, drafted.text).toBe(200);
      expect(drafted.body.features[0].changes[0]).toMatchObject({ action: 'changeFeatureEnvSafeguard' });
    } finally {
      await expectStatus(
        server,
        200,
        'PUT',
        '/api/admin/projects/default/environments/production/change-requests/config',
        {
          changeRequestsEnabled: false,
          requiredApprovals: 1,
        },
      );
    }
  });
});

describe.runIf(isPostgres())('safeguards checked by several processes', () => {
  it('act once', async () => {
    const replica = await startReplica(server);
    try {
      await createFeature(server, 'replicated');
      await expectStatus(server, 200, 'POST', `${ENV('replicated')}/on`);
      await expectStatus(server, 204, 'PUT', `${ENV('replicated')}/safeguards`, {
        impactMetric: {
          metricName: 'crashes',
          timeRange: 'hour',
          aggregationMode: 'count',
          labelSelectors: {},
        },
        triggerCondition: { operator: '>', threshold: 0 },
      });
      await measured('crashes', 'counter', 1);
      await until(
        () => featureEnvironment(server, 'replicated', 'production'),
        (e) => !e.enabled,
      );
      await new Promise((r) => setTimeout(r, 1000));
      expect(await eventsAbout(server, 'replicated', 'safeguard-triggered')).toHaveLength(1);
      expect(await eventsAbout(server, 'replicated', 'feature-environment-disabled')).toHaveLength(1);
    } finally {
      await replica.close();
    }
  });
});
