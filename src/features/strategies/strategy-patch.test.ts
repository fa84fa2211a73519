import { describe, expect, it } from 'vitest';
import {
  asAdmin,
  eventsAbout,
  expectStatus,
  featureEnvironment,
  projectMember,
} from '../../../test/feature-ops.js';
import {
  callers,
  createFeature,
  createProject,
  expectCallerRefusals,
  expectRefused,
  server,
  useFeatureServer,
} from '../../../test/features.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
});

const STRATEGIES = (feature: string, environment = 'development', project = 'default') =>
  `/api/admin/projects/${project}/features/${feature}/environments/${environment}/strategies`;

async function strategyOf(feature: string, body: Record<string, unknown> = {}) {
  await createFeature(server, feature);
  const res = await expectStatus(server, 200, 'POST', STRATEGIES(feature), {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'default', groupId: feature },
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }],
    ...body,
  });
  return res.body as { id: string };
}
const readStrategy = async (feature: string, id: string) =>
  (await asAdmin(server, 'GET', `${STRATEGIES(feature)}/${id}`)).body;

describe('PATCH …/strategies/:strategyId', () => {
  it('applies the patch and stores the result as PUT does: 200, read back, one feature-strategy-update', async () => {
    const { id } = await strategyOf('patched');
    const res = await expectStatus(server, 200, 'PATCH', `${STRATEGIES('patched')}/${id}`, [
      { op: 'replace', path: '/parameters/rollout', value: '80' },
      {
        op: 'add',
        path: '/constraints/-',
        value: { contextName: 'appName', operator: 'IN', values: ['web'] },
      },
      { op: 'replace', path: '/title', value: 'Most users' },
    ]);
    expect(res.body).toMatchObject({
      id,
      name: 'flexibleRollout',
      title: 'Most users',
      parameters: { rollout: '80', stickiness: 'default', groupId: 'patched' },
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['a'] },
        { contextName: 'appName', operator: 'IN', values: ['web'] },
      ],
    });
    expect(await readStrategy('patched', id)).toEqual(res.body);
    const [event] = await eventsAbout(server, 'patched', 'feature-strategy-update');
    expect(event).toMatchObject({
      environment: 'development',
      data: { parameters: { rollout: '80' } },
      preData: { parameters: { rollout: '50' } },
    });
  });

  it('keeps the id, feature and position whatever the patch says; an empty patch changes nothing', async () => {
    const { id } = await strategyOf('kept');
    const before = await readStrategy('kept', id);
    const res = await expectStatus(server, 200, 'PATCH', `${STRATEGIES('kept')}/${id}`, [
      { op: 'replace', path: '/id', value: 'another' },
      { op: 'replace', path: '/featureName', value: 'another' },
      { op: 'replace', path: '/sortOrder', value: 9 },
    ]);
    expect(res.body).toEqual(before);
    await expectStatus(server, 200, 'PATCH', `${STRATEGIES('kept')}/${id}`, []);
    expect(await eventsAbout(server, 'kept', 'feature-strategy-update')).toHaveLength(0);
  });

  it('switches the environment off when the patch disables its last active strategy', async () => {
    const { id } = await strategyOf('switched');
    await expectStatus(
      server,
      200,
      'POST',
      '/api/admin/projects/default/features/switched/environments/development/on',
    );
    expect((await featureEnvironment(server, 'switched', 'development')).enabled).toBe(true);
    await expectStatus(server, 200, 'PATCH', `${STRATEGIES('switched')}/${id}`, [
      { op: 'replace', path: '/disabled', value: true },
    ]);
    expect((await featureEnvironment(server, 'switched', 'development')).enabled).toBe(false);
    expect(await eventsAbout(server, 'switched', 'feature-environment-disabled')).toHaveLength(1);
  });

  it('refuses patches that fail or leave an invalid strategy (400), changing nothing', async () => {
    const { id } = await strategyOf('refused');
    const read = () => readStrategy('refused', id);
    for (const patch of [
      [{ op: 'test', path: '/name', value: 'default' }],
      [{ op: 'replace', path: '/nothing/here', value: 1 }],
      [{ op: 'replace', path: '/disabled', value: 'yes' }],
      [{ op: 'replace', path: '/name', value: 'no-such-strategy' }],
      [{ op: 'replace', path: '/parameters/rollout', value: '150' }],
      [
        {
          op: 'add',
          path: '/constraints/-',
          value: { contextName: 'userId', operator: 'NUM_EQ', value: 'ten' },
        },
      ],
      [{ op: 'replace', path: '/segments', value: [999] }],
      [{ op: 'nope', path: '/name' }],
      { op: 'replace', path: '/name', value: 'default' },
    ]) {
      const res = await expectRefused(
        server,
        400,
        () => asAdmin(server, 'PATCH', `${STRATEGIES('refused')}/${id}`, patch),
        read,
        JSON.stringify(patch),
      );
      expect(res.body.name).toBe('ValidationError');
    }
  });

  it('answers 404 for an unknown strategy, 403 for a strategy of another feature, environment or project', async () => {
    const { id } = await strategyOf('owner');
    await createFeature(server, 'intruder');
    const read = () => readStrategy('owner', id);
    const patch = [{ op: 'replace', path: '/title', value: 'x' }];
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'PATCH', `${STRATEGIES('owner')}/nope`, patch),
      read,
    );
    await expectRefused(
      server,
      403,
      () => asAdmin(server, 'PATCH', `${STRATEGIES('intruder')}/${id}`, patch),
      read,
    );
    await expectRefused(
      server,
      403,
      () => asAdmin(server, 'PATCH', `${STRATEGIES('owner', 'production')}/${id}`, patch),
      read,
    );
    await expectRefused(
      server,
      403,
      () => asAdmin(server, 'PATCH', `${STRATEGIES('owner', 'development', 'other')}/${id}`, patch),
      read,
    );
  });

  it('needs UPDATE_FEATURE_STRATEGY in the project and environment', async () => {
    const { id } = await strategyOf('guarded');
    const url = `${STRATEGIES('guarded')}/${id}`;
    const read = () => readStrategy('guarded', id);
    const patch = [{ op: 'replace', path: '/title', value: 'x' }];
    await expectCallerRefusals(server, callers, { method: 'PATCH', url, body: patch }, read);
    const production = await projectMember(server, 'default', [
      { name: 'UPDATE_FEATURE_STRATEGY', environment: 'production' },
    ]);
    await expectRefused(
      server,
      403,
      () => server.request('PATCH', url, { token: production.pat, body: patch }),
      read,
    );
    const development = await projectMember(server, 'default', [
      { name: 'UPDATE_FEATURE_STRATEGY', environment: 'development' },
    ]);
    expect((await server.request('PATCH', url, { token: development.pat, body: patch })).status).toBe(200);
  });
});
