import { describe, expect, it } from 'vitest';
import {
  addStrategyAndVariants,
  callers,
  createFeature,
  createProject,
  eventsOf,
  expectCallerRefusals,
  expectRefused,
  grantRole,
  readFeature,
  server,
  setEnabled,
  useFeatureServer,
} from '../../../test/features.js';
import { createUser } from '../../../test/server.js';

useFeatureServer(async () => {
  await createProject(server, 'target');
  await createProject(server, 'narrow');
  await server.request('DELETE', '/api/admin/projects/narrow/environments/production', {
    token: server.adminToken,
  });
});

const move = (feature: string, from: string, body: unknown, token = server.adminToken) =>
  server.request('POST', `/api/admin/projects/${from}/features/${feature}/changeProject`, { token, body });
const projectOf = async (feature: string) => {
  for (const project of ['default', 'target', 'narrow']) {
    if ((await readFeature(server, feature, project)).status === 200) return project;
  }
  return null;
};

describe('E7 POST /api/admin/projects/:projectId/features/:featureName/changeProject', () => {
  it('moves the feature with its strategies, enabled states, variants and tags: 200, no body, one event', async () => {
    await createFeature(server, 'mover');
    const { id, variants } = await addStrategyAndVariants(server, 'mover', 'development');
    await setEnabled(server, 'mover', 'development', true);
    await server.request('POST', '/api/admin/features/mover/tags', {
      token: server.adminToken,
      body: { type: 'simple', value: 'moving' },
    });
    const res = await move('mover', 'default', { newProjectId: 'target' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await readFeature(server, 'mover', 'default')).status).toBe(404);
    const moved = await readFeature(server, 'mover', 'target');
    expect(moved.status).toBe(200);
    expect(moved.body.project).toBe('target');
    const dev = moved.body.environments.find((e: { name: string }) => e.name === 'development');
    expect(dev).toMatchObject({ enabled: true, variants });
    expect(dev.strategies.map((s: { id: string }) => s.id)).toEqual([id]);
    const list = await server.request('GET', '/api/admin/projects/target/features', {
      token: server.adminToken,
    });
    expect(list.body.features.map((f: { name: string }) => f.name)).toContain('mover');
    const old = await server.request('GET', '/api/admin/projects/default/features', {
      token: server.adminToken,
    });
    expect(old.body.features.map((f: { name: string }) => f.name)).not.toContain('mover');
    const tags = await server.request('GET', '/api/admin/features/mover/tags', { token: server.adminToken });
    expect(tags.body.tags).toEqual([{ type: 'simple', value: 'moving' }]);
    expect((await eventsOf(server, 'feature=mover'))[0]).toMatchObject({
      type: 'feature-project-change',
      featureName: 'mover',
      project: 'target',
      data: { oldProject: 'default', newProject: 'target' },
    });
  });

  it('moves it back the same way', async () => {
    expect((await move('mover', 'target', { newProjectId: 'default' })).status).toBe(200);
    expect(await projectOf('mover')).toBe('default');
  });

  it('answers 404 for an unknown feature, a feature of another project and an unknown target', async () => {
    await createFeature(server, 'stays', 'target');
    const read = () => projectOf('stays');
    await expectRefused(server, 404, () => move('nope', 'default', { newProjectId: 'target' }), read);
    await expectRefused(server, 404, () => move('stays', 'default', { newProjectId: 'target' }), read);
    await expectRefused(
      server,
      404,
      () => move('stays', 'target', { newProjectId: 'no-such-project' }),
      read,
    );
  });

  it('answers 403 when the target has other environments than the feature', async () => {
    const res = await expectRefused(
      server,
      403,
      () => move('stays', 'target', { newProjectId: 'narrow' }),
      () => projectOf('stays'),
    );
    expect(res.body.message).toContain('production');
  });

  it('answers 400 for a missing or non-string newProjectId', async () => {
    for (const body of [
      {},
      { newProjectId: 5 },
      { newProjectId: '' },
      { newProjectId: ['target'] },
      { newProjectId: 'p'.repeat(101) },
    ]) {
      await expectRefused(
        server,
        400,
        () => move('stays', 'target', body),
        () => projectOf('stays'),
        JSON.stringify(body),
      );
    }
  });

  it('needs MOVE_FEATURE_TOGGLE in both projects', async () => {
    await createFeature(server, 'guarded');
    const read = () => projectOf('guarded');
    const ownerOfSource = await createUser(server, 3);
    await grantRole(server, ownerOfSource.id, 'default', 4);
    await expectRefused(
      server,
      403,
      () => move('guarded', 'default', { newProjectId: 'target' }, ownerOfSource.pat),
      read,
    );
    const memberOfBoth = await createUser(server, 3);
    await grantRole(server, memberOfBoth.id, 'default', 5);
    await grantRole(server, memberOfBoth.id, 'target', 5);
    await expectRefused(
      server,
      403,
      () => move('guarded', 'default', { newProjectId: 'target' }, memberOfBoth.pat),
      read,
    );
    await grantRole(server, ownerOfSource.id, 'target', 4);
    expect((await move('guarded', 'default', { newProjectId: 'target' }, ownerOfSource.pat)).status).toBe(
      200,
    );
    const editor = await createUser(server, 2);
    expect((await move('guarded', 'target', { newProjectId: 'default' }, editor.pat)).status).toBe(200);
    expect(await read()).toBe('default');
    await expectCallerRefusals(
      server,
      callers,
      {
        method: 'POST',
        url: '/api/admin/projects/default/features/guarded/changeProject',
        body: { newProjectId: 'target' },
      },
      read,
    );
  });

  it('refuses (403) a feature whose strategies use segments of its project, until they stop', async () => {
    await createFeature(server, 'segmented-move');
    const segment = await server.request('POST', '/api/admin/segments', {
      token: server.adminToken,
      body: { name: 'default-only', project: 'default', constraints: [] },
    });
    expect(segment.status).toBe(201);
    const strategy = await server.request(
      'POST',
      '/api/admin/projects/default/features/segmented-move/environments/development/strategies',
      { token: server.adminToken, body: { name: 'default', segments: [segment.body.id] } },
    );
    expect(strategy.status).toBe(200);
    const read = () => projectOf('segmented-move');
    const refused = await expectRefused(
      server,
      403,
      () => move('segmented-move', 'default', { newProjectId: 'target' }),
      read,
    );
    expect(refused.body.message).toContain('default-only');
    await server.request(
      'PUT',
      `/api/admin/projects/default/features/segmented-move/environments/development/strategies/${strategy.body.id}`,
      { token: server.adminToken, body: { name: 'default', segments: [] } },
    );
    expect((await move('segmented-move', 'default', { newProjectId: 'target' })).status).toBe(200);
  });
});
