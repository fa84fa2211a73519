import { describe, expect, it } from 'vitest';
import { asAdmin, expectStatus, featureEnvironment, projectMember } from '../../../test/feature-ops.js';
import {
  callers,
  createFeature,
  createProject,
  expectCallerRefusals,
  expectRefused,
  server,
  useFeatureServer,
} from '../../../test/features.js';
import { createUser, lastEvent } from '../../../test/server.js';

useFeatureServer(async () => {
  await createProject(server, 'ds');
});

const DEFAULT = (environment = 'development', project = 'ds') =>
  `/api/admin/projects/${project}/environments/${environment}/default-strategy`;
const projectEnvironments = async (project = 'ds') =>
  (await asAdmin(server, 'GET', `/api/admin/environments/project/${project}`)).body.environments;

describe('POST /api/admin/projects/:projectId/environments/:environment/default-strategy', () => {
  it('stores the strategy (200), shown by the project and its environments, with its event', async () => {
    const res = await expectStatus(server, 200, 'POST', DEFAULT(), {
      name: 'flexibleRollout',
      parameters: { rollout: '40', groupId: '' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    });
    const stored = {
      name: 'flexibleRollout',
      title: null,
      disabled: false,
      parameters: { rollout: '40', stickiness: 'default', groupId: '' },
      constraints: [
        { contextName: 'appName', operator: 'IN', values: ['web'], caseInsensitive: false, inverted: false },
      ],
      variants: [],
      segments: [],
    };
    expect(res.body).toEqual(stored);
    const environments = await projectEnvironments();
    expect(environments.find((e: { name: string }) => e.name === 'development').defaultStrategy).toEqual(
      stored,
    );
    expect(
      environments.find((e: { name: string }) => e.name === 'production').defaultStrategy,
    ).toBeUndefined();
    const project = (await asAdmin(server, 'GET', '/api/admin/projects/ds')).body;
    expect(project.environments).toEqual([
      { environment: 'development', defaultStrategy: stored },
      { environment: 'production' },
    ]);
    expect(await lastEvent(server, 'default-strategy-updated')).toMatchObject({
      project: 'ds',
      environment: 'development',
      data: stored,
      preData: null,
    });
  });

  it('is what a feature switched on there without a strategy gets, its empty group id the feature’s name', async () => {
    await createFeature(server, 'ds-flag', 'ds');
    await expectStatus(
      server,
      200,
      'POST',
      '/api/admin/projects/ds/features/ds-flag/environments/development/on',
    );
    const env = await featureEnvironment(server, 'ds-flag', 'development', 'ds');
    expect(env.strategies).toEqual([
      expect.objectContaining({
        name: 'flexibleRollout',
        parameters: { rollout: '40', stickiness: 'default', groupId: 'ds-flag' },
        constraints: [expect.objectContaining({ contextName: 'appName', values: ['web'] })],
      }),
    ]);
    // A new feature gets no strategy (as in Unleash); production, without a default, gets the 100% rollout.
    await createFeature(server, 'ds-new', 'ds');
    expect((await featureEnvironment(server, 'ds-new', 'development', 'ds')).strategies).toEqual([]);
    await expectStatus(
      server,
      200,
      'POST',
      '/api/admin/projects/ds/features/ds-flag/environments/production/on',
    );
    expect(
      (await featureEnvironment(server, 'ds-flag', 'production', 'ds')).strategies[0].parameters,
    ).toEqual({
      rollout: '100',
      stickiness: 'default',
      groupId: 'ds-flag',
    });
  });

  it('replaces the previous one, which the event keeps', async () => {
    await expectStatus(server, 200, 'POST', DEFAULT(), { name: 'default', title: 'Everyone' });
    expect(await lastEvent(server, 'default-strategy-updated')).toMatchObject({
      data: { name: 'default', title: 'Everyone' },
      preData: { name: 'flexibleRollout' },
    });
  });

  it('refuses what a strategy may not be (400), unknown projects and environments (404)', async () => {
    const read = () => projectEnvironments();
    for (const body of [
      {},
      { name: 'no-such-strategy' },
      { name: 'flexibleRollout', parameters: { rollout: '101' } },
      { name: 'default', constraints: [{ contextName: 'userId', operator: 'NUM_EQ', value: 'x' }] },
      { name: 'default', segments: [12345] },
      { name: 'default', variants: [{ name: 'a', weight: 100, weightType: 'fix', stickiness: 'default' }] },
    ]) {
      await expectRefused(
        server,
        400,
        () => asAdmin(server, 'POST', DEFAULT(), body),
        read,
        JSON.stringify(body),
      );
    }
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'POST', DEFAULT('staging'), { name: 'default' }),
      read,
    );
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'POST', DEFAULT('development', 'ghost'), { name: 'default' }),
      read,
    );
  });

  it('needs UPDATE_PROJECT: a project Owner may, an Editor and a Member may not', async () => {
    const read = () => projectEnvironments();
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url: DEFAULT(), body: { name: 'default' } },
      read,
    );
    const editor = await createUser(server, 2);
    await expectRefused(
      server,
      403,
      () => server.request('POST', DEFAULT(), { token: editor.pat, body: { name: 'default' } }),
      read,
    );
    const member = await projectMember(server, 'ds', ['UPDATE_FEATURE', 'CREATE_FEATURE_STRATEGY']);
    await expectRefused(
      server,
      403,
      () => server.request('POST', DEFAULT(), { token: member.pat, body: { name: 'default' } }),
      read,
    );
    const owner = await projectMember(server, 'ds', ['UPDATE_PROJECT']);
    const res = await server.request('POST', DEFAULT(), { token: owner.pat, body: { name: 'default' } });
    expect(res.status).toBe(200);
  });
});
