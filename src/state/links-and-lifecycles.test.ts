import { describe, expect, it } from 'vitest';
import { createFeature, createProject, readFeature, server, useFeatureServer } from '../../test/features.js';
import { admin } from '../../test/requests.js';

// What an import does besides writing its own rows: the environments it links to projects reach
// the features already there, and the lifecycle of each feature it writes follows the feature.

useFeatureServer(async () => {
  const res = await server.request('POST', '/api/admin/environments', {
    ...admin(server),
    body: { name: 'staging', type: 'test' },
  });
  expect(res.status, res.text).toBe(201);
});

async function importState(body: Record<string, unknown>, query = '') {
  const res = await server.request('POST', `/api/admin/state/import${query}`, {
    ...admin(server),
    body: { version: 1, ...body },
  });
  expect(res.status, res.text).toBe(202);
}

async function stages(name: string, project = 'default') {
  const res = await server.request('GET', `/api/admin/projects/${project}/features/${name}/lifecycle`, {
    token: server.adminToken,
  });
  expect(res.status, res.text).toBe(200);
  return (res.body as { stage: string }[]).map((s) => s.stage);
}

async function environmentsOf(name: string, project: string) {
  const res = await readFeature(server, name, project);
  expect(res.status, res.text).toBe(200);
  return (res.body.environments as { name: string; enabled: boolean }[]).map((e) => [e.name, e.enabled]);
}

describe('an import links environments to projects', () => {
  it('gives the features a project had the environment it links, switched off', async () => {
    await createProject(server, 'kept');
    await createFeature(server, 'kept-one', 'kept');
    const unlinked = await server.request('DELETE', '/api/admin/projects/kept/environments/staging', {
      token: server.adminToken,
    });
    expect(unlinked.status, unlinked.text).toBe(200);
    expect((await environmentsOf('kept-one', 'kept')).map(([name]) => name)).not.toContain('staging');
    // A new name: the project's row is overwritten, not created, in the same statement.
    await importState(
      { projects: [{ id: 'kept', name: 'Kept', environments: ['development', 'production', 'staging'] }] },
      '?keep=false',
    );
    expect(await environmentsOf('kept-one', 'kept')).toContainEqual(['staging', false]);
  });

  it('links a project it creates, whose features get what the document gives them', async () => {
    await importState({
      projects: [{ id: 'fresh', name: 'fresh', environments: ['development', 'staging'] }],
      features: [{ name: 'fresh-one', project: 'fresh' }],
      featureEnvironments: [{ featureName: 'fresh-one', environment: 'staging', enabled: true }],
    });
    const project = await server.request('GET', '/api/admin/projects/fresh', { token: server.adminToken });
    expect(project.status, project.text).toBe(200);
    expect((project.body.environments as { environment: string }[]).map((e) => e.environment).sort()).toEqual(
      ['development', 'staging'],
    );
    expect(await environmentsOf('fresh-one', 'fresh')).toContainEqual(['staging', true]);
  });
});

describe('the lifecycle of what an import writes', () => {
  it('starts a new feature initial, and an archived one archived too', async () => {
    await importState({
      features: [
        { name: 'lc-imported', project: 'default' },
        { name: 'lc-imported-archived', project: 'default', archived: true },
      ],
    });
    expect(await stages('lc-imported')).toEqual(['initial']);
    expect(await stages('lc-imported-archived')).toEqual(['initial', 'archived']);
  });

  it('takes a feature it brings back from the archive out of the archived stage', async () => {
    await createFeature(server, 'lc-revived');
    const archived = await server.request('DELETE', '/api/admin/projects/default/features/lc-revived', {
      token: server.adminToken,
    });
    expect(archived.status, archived.text).toBe(202);
    expect(await stages('lc-revived')).toEqual(['initial', 'archived']);
    await importState(
      { features: [{ name: 'lc-revived', project: 'default', archived: false }] },
      '?keep=false',
    );
    expect(await stages('lc-revived')).toEqual(['initial']);
  });
});
