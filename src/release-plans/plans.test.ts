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

    await expectStatus(server, 200, 'DELETE', `${PLANS('checkout')}/${added.body.id}`);
    expect((await expectStatus(server, 200, 'GET', PLANS('checkout'))).body).toEqual([]);
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
    await createProject(server, 'guarded');
    await createFeature(server, 'guarded-flag', 'guarded');
    await expectStatus(
      server,
      200,
      'PUT',
      '/api/admin/projects/guarded/environments/production/change-requests/config',
      {
        changeRequestsEnabled: true,
      },
    );
    const editor = await createUser(server, 2);
    const refused = await server.request('POST', PLANS('guarded-flag', 'guarded'), {
      token: editor.pat,
      body: { templateId },
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('SKIP_CHANGE_REQUEST');
    // An admin token may skip change requests; a plan is a change like any other.
    expect((await asAdmin(server, 'POST', PLANS('guarded-flag', 'guarded'), { templateId })).status).toBe(
      200,
    );
  });
});
