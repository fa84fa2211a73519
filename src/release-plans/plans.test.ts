import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureEnvironment, PRODUCTION_CLIENT_TOKEN } from '../../test/feature-ops.js';
import { asAdmin, expectStatus } from '../../test/requests.js';
import {
  createFeature,
  createProject,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  writeDirectly,
} from '../../test/server.js';

let server: TestServer;
let templateId: string;

const ENV = (flag: string, project = 'default') =>
  `/api/admin/projects/${project}/features/${flag}/environments/production`;
const PLANS = (flag: string, project = 'default') => `${ENV(flag, project)}/release-plans`;

/** The strategies SDKs of production get for the flag. */
async function served(flag: string) {
  const res = await server.request('GET', '/api/client/features', { token: PRODUCTION_CLIENT_TOKEN });
  expect(res.status, res.text).toBe(200);
  return res.body.features.find((f: any) => f.name === flag);
}

/** A flag in a project of its own whose production takes changes through change requests. */
async function guardedFlag(project: string, flag: string) {
  await createProject(server, project);
  await createFeature(server, flag, project);
  await expectStatus(
    server,
    200,
    'PUT',
    `/api/admin/projects/${project}/environments/production/change-requests/config`,
    { changeRequestsEnabled: true },
  );
}

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: PRODUCTION_CLIENT_TOKEN });
  const template = await expectStatus(server, 200, 'POST', '/api/admin/release-plan-templates', {
    name: 'Gradual',
    description: 'Ten percent, then everyone',
    milestones: [
      {
        name: 'Ten percent',
        sortOrder: 0,
        strategies: [
          { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: '' } },
        ],
      },
      { name: 'Everyone', sortOrder: 1, strategies: [{ name: 'default' }] },
    ],
  });
  templateId = template.body.id;
});
afterAll(() => server.close());

describe('a release plan on a flag environment', () => {
  it('is made from a template, its milestones started by hand while the environment is off', async () => {
    await createFeature(server, 'checkout');
    const added = await expectStatus(server, 200, 'POST', PLANS('checkout'), { templateId });
    expect(added.body).toMatchObject({
      discriminator: 'plan',
      name: 'Gradual',
      featureName: 'checkout',
      environment: 'production',
      releasePlanTemplateId: templateId,
      activeMilestoneId: null,
    });
    const [first, second] = added.body.milestones;
    expect(first).toMatchObject({
      name: 'Ten percent',
      startedAt: null,
      releasePlanDefinitionId: added.body.id,
    });
    // The plan's copy: its own ids, the flag's name as the empty groupId.
    expect(first.id).not.toBe(templateId);
    expect(first.strategies[0]).toMatchObject({ name: 'flexibleRollout', milestoneId: first.id });
    expect(first.strategies[0].parameters.groupId).toBe('checkout');
    expect(await lastEvent(server, 'release-plan-added')).toMatchObject({
      featureName: 'checkout',
      environment: 'production',
      project: 'default',
    });
    expect((await expectStatus(server, 200, 'GET', PLANS('checkout'))).body).toEqual([added.body]);

    const started = await expectStatus(
      server,
      200,
      'POST',
      `${PLANS('checkout')}/${added.body.id}/milestones/${first.id}/start`,
    );
    expect(started.body).toMatchObject({ id: first.id, startedAt: expect.any(String) });
    expect(await lastEvent(server, 'release-plan-milestone-started')).toMatchObject({
      featureName: 'checkout',
      data: { milestoneName: 'Ten percent', name: 'Gradual' },
    });
    // Hidden among the environment's strategies, served to SDKs.
    expect((await featureEnvironment(server, 'checkout', 'production')).strategies).toEqual([]);
    expect((await served('checkout')).strategies).toEqual([
      expect.objectContaining({
        name: 'flexibleRollout',
        parameters: expect.objectContaining({ groupId: 'checkout' }),
      }),
    ]);
    // Switched on: the started milestone counts as its strategy, no default one is added.
    await expectStatus(server, 200, 'POST', `${ENV('checkout')}/on`);
    expect((await featureEnvironment(server, 'checkout', 'production')).strategies).toEqual([]);
    expect(await served('checkout')).toMatchObject({
      enabled: true,
      strategies: [{ name: 'flexibleRollout' }],
    });

    await expectStatus(
      server,
      200,
      'POST',
      `${PLANS('checkout')}/${added.body.id}/milestones/${second.id}/start`,
    );
    expect((await served('checkout')).strategies).toEqual([expect.objectContaining({ name: 'default' })]);
    const plan = (await expectStatus(server, 200, 'GET', PLANS('checkout'))).body[0];
    expect(plan.activeMilestoneId).toBe(second.id);
    // Embedded in the flag's read and its environment's, where Unleash's UI reads plans.
    const flag = async () =>
      (await expectStatus(server, 200, 'GET', '/api/admin/projects/default/features/checkout')).body;
    const production = (await flag()).environments.find((e: any) => e.name === 'production');
    expect(production).toMatchObject({
      milestoneName: 'Everyone',
      milestoneOrder: 1,
      totalMilestones: 2,
      safeguards: [],
      releasePlans: [plan],
    });
    expect(
      (await flag()).environments.find((e: any) => e.name !== 'production').releasePlans,
    ).toBeUndefined();
    expect((await featureEnvironment(server, 'checkout', 'production')).releasePlans).toEqual([plan]);
    // Unleash's deprecated paths, with an underscore, are the same operations.
    const oldPath = PLANS('checkout').replace(/release-plans$/, 'release_plans');
    expect((await expectStatus(server, 200, 'GET', oldPath)).body).toEqual([plan]);
    // A change every cache reloads for (a new environment) keeps the plan in the flag's read.
    await expectStatus(server, 201, 'POST', '/api/admin/environments', { name: 'staging', type: 'test' });
    expect((await flag()).environments.find((e: any) => e.name === 'production').releasePlans).toEqual([
      plan,
    ]);

    await expectStatus(server, 200, 'DELETE', `${PLANS('checkout')}/${added.body.id}`);
    expect((await expectStatus(server, 200, 'GET', PLANS('checkout'))).body).toEqual([]);
    expect((await flag()).environments.some((e: any) => 'releasePlans' in e)).toBe(false);
    expect((await served('checkout')).strategies).toEqual([]);
    expect(await lastEvent(server, 'release-plan-removed')).toMatchObject({
      featureName: 'checkout',
      preData: { id: added.body.id },
    });
  });

  it('starts its first milestone at once in an environment that is on, and replaces the plan there was', async () => {
    await createFeature(server, 'search');
    await expectStatus(server, 200, 'POST', `${ENV('search')}/strategies`, {
      name: 'userWithId',
      parameters: { userIds: '1' },
    });
    await expectStatus(server, 200, 'POST', `${ENV('search')}/on`);
    const first = await expectStatus(server, 200, 'POST', PLANS('search'), { templateId });
    expect(first.body.activeMilestoneId).toBe(first.body.milestones[0].id);
    // The plan's milestone first, then the environment's own strategies.
    expect((await served('search')).strategies.map((s: any) => s.name)).toEqual([
      'flexibleRollout',
      'userWithId',
    ]);
    const second = await expectStatus(server, 200, 'POST', PLANS('search'), { templateId });
    expect(second.body.id).not.toBe(first.body.id);
    const plans = (await expectStatus(server, 200, 'GET', PLANS('search'))).body;
    expect(plans.map((p: any) => p.id)).toEqual([second.body.id]);
  });

  it('added while the environment is off, starts its first milestone when it is switched on, with no default strategy', async () => {
    await createFeature(server, 'waiting');
    const plan = (await expectStatus(server, 200, 'POST', PLANS('waiting'), { templateId })).body;
    expect(plan.activeMilestoneId).toBeNull();
    await expectStatus(server, 200, 'POST', `${ENV('waiting')}/on`);
    const after = (await expectStatus(server, 200, 'GET', PLANS('waiting'))).body[0];
    expect(after.activeMilestoneId).toBe(plan.milestones[0].id);
    expect((await featureEnvironment(server, 'waiting', 'production')).strategies).toEqual([]);
    expect(await served('waiting')).toMatchObject({
      enabled: true,
      strategies: [{ name: 'flexibleRollout' }],
    });
    expect(await lastEvent(server, 'release-plan-milestone-started')).toMatchObject({
      featureName: 'waiting',
    });
  });

  it('refuses unknown templates, plans and milestones, and those of other projects', async () => {
    await createFeature(server, 'basket');
    const unknown = await asAdmin(server, 'POST', PLANS('basket'), { templateId: 'nope' });
    expect(unknown.status).toBe(404);
    expect((await asAdmin(server, 'POST', PLANS('nowhere'), { templateId })).status).toBe(404);
    expect((await asAdmin(server, 'DELETE', `${PLANS('basket')}/nope`)).status).toBe(404);
    const plan = await expectStatus(server, 200, 'POST', PLANS('basket'), { templateId });
    expect(
      (await asAdmin(server, 'POST', `${PLANS('basket')}/${plan.body.id}/milestones/nope/start`)).status,
    ).toBe(404);
    await createProject(server, 'other');
    const own = await expectStatus(server, 200, 'POST', '/api/admin/projects/other/release-templates', {
      name: 'Other only',
      milestones: [{ name: 'All', sortOrder: 0, strategies: [{ name: 'default' }] }],
    });
    const elsewhere = await asAdmin(server, 'POST', PLANS('basket'), { templateId: own.body.id });
    expect(elsewhere.status).toBe(404);
  });

  it('is changed through change requests where the environment needs them', async () => {
    await guardedFlag('guarded', 'guarded-flag');
    const editor = await createUser(server, 2);
    const refused = await server.request('POST', PLANS('guarded-flag', 'guarded'), {
      token: editor.pat,
      body: { templateId },
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('SKIP_CHANGE_REQUEST');
    // Asked for in a change request, it is added when the request is applied.
    const admin = await createUser(server, 1);
    const cr = `/api/admin/projects/guarded/change-requests`;
    const draft = await server.request(
      'POST',
      '/api/admin/projects/guarded/environments/production/change-requests',
      {
        token: admin.pat,
        body: { feature: 'guarded-flag', action: 'addReleasePlan', payload: { templateId } },
      },
    );
    expect(draft.status, draft.text).toBe(200);
    for (const state of ['In review', 'Approved', 'Applied']) {
      const res = await server.request('PUT', `${cr}/${draft.body.id}/state`, {
        token: admin.pat,
        body: { state },
      });
      expect(res.status, res.text).toBe(200);
    }
    const [plan] = (await expectStatus(server, 200, 'GET', PLANS('guarded-flag', 'guarded'))).body;
    expect(plan).toMatchObject({ name: 'Gradual', releasePlanTemplateId: templateId });
    // An admin token may skip change requests; a plan is a change like any other.
    expect((await asAdmin(server, 'POST', PLANS('guarded-flag', 'guarded'), { templateId })).status).toBe(
      200,
    );
  });
});

describe("a change request's playground", () => {
  it('shows the flag serving what the request would start of its release plan', async () => {
    await guardedFlag('previewed', 'previewed-flag');
    const admin = await createUser(server, 1);
    const as = (method: string, url: string, body?: unknown) =>
      server.request(method, url, { token: admin.pat, body });
    const cr = '/api/admin/projects/previewed/change-requests';
    const setState = async (id: number, state: string) =>
      expect((await as('PUT', `${cr}/${id}/state`, { state })).status).toBe(200);
    const inReview = async (changes: unknown[]) => {
      const draft = await as(
        'POST',
        '/api/admin/projects/previewed/environments/production/change-requests',
        changes,
      );
      expect(draft.status, draft.text).toBe(200);
      await setState(draft.body.id, 'In review');
      return draft.body.id as number;
    };
    const served = async (id: number) => {
      const res = await as('POST', `/api/admin/playground/change-request/${id}`, {
        context: { appName: 'web', userId: '7' },
      });
      expect(res.status, res.text).toBe(200);
      const flag = res.body.features.find((f: any) => f.name === 'previewed-flag');
      return flag.environments.production[0].strategies.data.map((s: any) => [s.name, s.parameters]);
    };
    const feature = 'previewed-flag';

    // Switched on with a plan added: its first milestone starts, the flag's name as its groupId.
    const adding = await inReview([
      { feature, action: 'addReleasePlan', payload: { templateId } },
      { feature, action: 'updateEnabled', payload: { enabled: true } },
    ]);
    expect(await served(adding)).toEqual([
      ['flexibleRollout', { rollout: '10', stickiness: 'default', groupId: feature }],
    ]);
    await setState(adding, 'Approved');
    await setState(adding, 'Applied');
    const [plan] = (await expectStatus(server, 200, 'GET', PLANS(feature, 'previewed'))).body;

    const starting = await inReview([
      { feature, action: 'startMilestone', payload: { planId: plan.id, milestoneId: plan.milestones[1].id } },
    ]);
    expect(await served(starting)).toEqual([['default', {}]]);
    await setState(starting, 'Cancelled');
    const removing = await inReview([{ feature, action: 'deleteReleasePlan', payload: { planId: plan.id } }]);
    expect(await served(removing)).toEqual([]);
    // The flag itself still serves its first milestone.
    expect((await featureEnvironment(server, feature, 'production', 'previewed')).enabled).toBe(true);
  });
});

describe('an automatic progression', () => {
  /** Brings the progressions due now, instead of in a minute: what the test cannot wait for. */
  const dueNow = () =>
    writeDirectly(
      server,
      `UPDATE jobs SET run_at = now() WHERE kind = 'milestone-progression' AND state = 'pending'`,
    );

  async function planOf(flag: string) {
    return (await expectStatus(server, 200, 'GET', PLANS(flag))).body[0];
  }

  async function until(flag: string, done: (plan: any) => boolean) {
    const deadline = Date.now() + 8000;
    for (;;) {
      const plan = await planOf(flag);
      if (done(plan) || Date.now() > deadline) return plan;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('starts the next milestone by itself after the interval, once', async () => {
    await createFeature(server, 'progressive');
    await expectStatus(server, 200, 'POST', `${ENV('progressive')}/on`);
    const plan = (await expectStatus(server, 200, 'POST', PLANS('progressive'), { templateId })).body;
    const [first, second] = plan.milestones;
    const progressions = `${ENV('progressive')}/progressions`;
    const set = await expectStatus(server, 200, 'PUT', `${progressions}/${first.id}`, {
      targetMilestone: second.id,
      transitionCondition: { intervalMinutes: 1 },
    });
    expect(set.body).toEqual({
      sourceMilestone: first.id,
      targetMilestone: second.id,
      transitionCondition: { intervalMinutes: 1 },
    });
    expect(await lastEvent(server, 'milestone-progression-created')).toMatchObject({
      featureName: 'progressive',
    });
    expect((await planOf('progressive')).milestones[0].transitionCondition).toEqual({ intervalMinutes: 1 });
    const job = (await asAdmin(server, 'GET', '/api/admin/jobs')).body.jobs[0];
    expect(job).toMatchObject({
      kind: 'milestone-progression',
      key: `${plan.id}:${first.id}`,
      state: 'pending',
    });
    // Due a minute after the first milestone started.
    expect(Date.parse(job.runAt) - Date.parse(first.startedAt)).toBe(60_000);

    expect((await served('progressive')).strategies.map((st: any) => st.name)).toEqual([
      'flexibleRollout',
      'flexibleRollout',
    ]);
    await dueNow();
    const moved = await until('progressive', (p) => p.activeMilestoneId === second.id);
    expect(moved.activeMilestoneId).toBe(second.id);
    expect(moved.milestones[0].progressionExecutedAt).toEqual(expect.any(String));
    // The second milestone's strategy, then the one switching the environment on gave it.
    expect((await served('progressive')).strategies.map((st: any) => st.name)).toEqual([
      'default',
      'flexibleRollout',
    ]);
    const events = (
      await asAdmin(
        server,
        'GET',
        '/api/admin/events?type=release-plan-milestone-started&feature=progressive',
      )
    ).body.events;
    expect(events.map((e: any) => e.data.milestoneName)).toEqual(['Everyone', 'Ten percent']);
    expect(events[0].createdBy).toBe('system');
  });

  it('waits while the environment is off, and is removed on request', async () => {
    await createFeature(server, 'paused');
    await expectStatus(server, 200, 'POST', `${ENV('paused')}/on`);
    const plan = (await expectStatus(server, 200, 'POST', PLANS('paused'), { templateId })).body;
    const [first, second] = plan.milestones;
    const progressions = `${ENV('paused')}/progressions`;
    await expectStatus(server, 200, 'PUT', `${progressions}/${first.id}`, {
      targetMilestone: second.id,
      transitionCondition: { intervalMinutes: 5 },
    });
    await expectStatus(server, 200, 'POST', `${ENV('paused')}/off`);
    await dueNow();
    const deadline = Date.now() + 8000;
    let job: any;
    while (Date.now() < deadline) {
      job = (await asAdmin(server, 'GET', '/api/admin/jobs')).body.jobs.find((j: any) =>
        j.key.startsWith(plan.id),
      );
      if (job?.lastError) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job).toMatchObject({ state: 'pending', attempts: 1 });
    expect(job.lastError).toContain('is off');
    expect((await planOf('paused')).activeMilestoneId).toBe(first.id);

    const bad = await asAdmin(server, 'PUT', `${progressions}/${first.id}`, {
      targetMilestone: first.id,
      transitionCondition: { intervalMinutes: 5 },
    });
    expect(bad.status).toBe(400);
    expect(
      (await asAdmin(server, 'PUT', `${progressions}/${first.id}`, { targetMilestone: second.id })).status,
    ).toBe(400);
    await expectStatus(server, 204, 'DELETE', `${progressions}/${first.id}`);
    expect((await planOf('paused')).milestones[0].transitionCondition).toBeNull();
    expect((await asAdmin(server, 'DELETE', `${progressions}/${first.id}`)).status).toBe(404);
    const jobs = (await asAdmin(server, 'GET', '/api/admin/jobs')).body.jobs;
    expect(jobs.find((j: any) => j.key.startsWith(plan.id)).state).toBe('cancelled');
    await expectStatus(server, 200, 'POST', `${progressions}/${plan.id}/resume`);
    expect(await lastEvent(server, 'release-plan-progressions-resumed')).toMatchObject({
      featureName: 'paused',
    });
  });
});

describe("a plan's milestone strategy", () => {
  it('is changed in the plan, and served at once when its milestone is the started one', async () => {
    await createFeature(server, 'tuned');
    await expectStatus(server, 200, 'POST', `${ENV('tuned')}/on`);
    const plan = (await expectStatus(server, 200, 'POST', PLANS('tuned'), { templateId })).body;
    const strategy = plan.milestones[0].strategies[0];
    const url = `${ENV('tuned')}/milestone-strategies/${strategy.id}`;
    const changed = await expectStatus(server, 200, 'PUT', url, {
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'default', groupId: '' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'] }],
    });
    expect(changed.body).toMatchObject({
      id: strategy.id,
      milestoneId: plan.milestones[0].id,
      parameters: { rollout: '25', groupId: 'tuned' },
    });
    expect((await served('tuned')).strategies[0]).toMatchObject({
      name: 'flexibleRollout',
      parameters: { rollout: '25' },
      constraints: [expect.objectContaining({ contextName: 'userId', values: ['1', '2'] })],
    });
    expect(
      (await expectStatus(server, 200, 'GET', PLANS('tuned'))).body[0].milestones[0].strategies[0].parameters
        .rollout,
    ).toBe('25');
    expect(await lastEvent(server, 'feature-strategy-update')).toMatchObject({
      featureName: 'tuned',
      data: { id: strategy.id, milestoneId: plan.milestones[0].id },
      preData: { parameters: { rollout: '10' } },
    });
    const bad = await asAdmin(server, 'PUT', url, { name: 'no-such-strategy' });
    expect(bad.status).toBe(400);
    expect(
      (await asAdmin(server, 'PUT', `${ENV('tuned')}/milestone-strategies/nope`, { name: 'default' })).status,
    ).toBe(404);
  });
});
