import { describe, expect, it } from 'vitest';
import {
  addStrategyAndVariants,
  callers,
  createFeature,
  createProject,
  eventsOf,
  expectCallerRefusals,
  expectRefused,
  readFeature,
  server,
  useFeatureServer,
} from '../../test/features.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser } from '../../test/server.js';

useFeatureServer(async () => {
  await createProject(server, 'shop');
});

const readProject = async (id: string) => {
  const res = await server.request('GET', `/api/admin/projects/${id}`, admin(server));
  return res.status === 200 ? res.body : res.status;
};

describe('PUT /api/admin/projects/:projectId', () => {
  it('changes the project: 200, read back, project-updated with preData', async () => {
    const res = await server.request('PUT', '/api/admin/projects/shop', {
      ...admin(server),
      body: { id: 'shop', name: 'The shop', description: 'Sells things', mode: 'protected' },
    });
    expect(res.status).toBe(200);
    expect(await readProject('shop')).toMatchObject({
      id: 'shop',
      name: 'The shop',
      description: 'Sells things',
      mode: 'protected',
    });
    expect((await eventsOf(server, 'type=project-updated'))[0]).toMatchObject({
      project: 'shop',
      preData: { name: 'shop', mode: 'open' },
      data: { name: 'The shop', description: 'Sells things', mode: 'protected' },
    });
  });

  it('refuses bad bodies (400) and unknown projects (404), changing nothing', async () => {
    const read = () => readProject('shop');
    for (const body of [
      { id: 'renamed', name: 'x' },
      { description: 'no name' },
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: 5 },
      { name: 'x', mode: 'secret' },
      { name: 'x', extra: 1 },
      { name: 'x', description: 'd'.repeat(1001) },
    ]) {
      await expectRefused(
        server,
        400,
        () => server.request('PUT', '/api/admin/projects/shop', { ...admin(server), body }),
        read,
        JSON.stringify(body),
      );
    }
    await expectRefused(
      server,
      404,
      () => server.request('PUT', '/api/admin/projects/nope', { ...admin(server), body: { name: 'x' } }),
      read,
    );
  });

  it('lets the Owner change it; an Editor elsewhere and other callers get 403/401/415', async () => {
    const editor = await createUser(server, 2);
    await server.request('POST', '/api/admin/projects', {
      token: editor.pat,
      body: { id: 'mine', name: 'Mine' },
    });
    expect(
      (
        await server.request('PUT', '/api/admin/projects/mine', {
          token: editor.pat,
          body: { name: 'Still mine' },
        })
      ).status,
    ).toBe(200);
    await expectRefused(
      server,
      403,
      () => server.request('PUT', '/api/admin/projects/shop', { token: editor.pat, body: { name: 'Taken' } }),
      () => readProject('shop'),
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'PUT', url: '/api/admin/projects/shop', body: { name: 'Hacked' } },
      () => readProject('shop'),
    );
  });
});

describe('DELETE /api/admin/projects/:projectId', () => {
  it('refuses a project with live features (409), the default project (403) and unknown ones (404)', async () => {
    await createProject(server, 'busy');
    await createFeature(server, 'busy-flag', 'busy');
    const res = await expectRefused(
      server,
      409,
      () => server.request('DELETE', '/api/admin/projects/busy', admin(server)),
      () => readProject('busy'),
    );
    expect(res.body.message).toContain('1 feature');
    await expectRefused(
      server,
      403,
      () => server.request('DELETE', '/api/admin/projects/default', admin(server)),
      () => readProject('default'),
    );
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/projects/nope', admin(server)),
      () => readProject('default'),
    );
    await expectCallerRefusals(server, callers, { method: 'DELETE', url: '/api/admin/projects/busy' }, () =>
      readProject('busy'),
    );
  });

  it('deletes a project whose features are archived: 200, they go too, with their events', async () => {
    await server.request('POST', '/api/admin/projects/busy/archive', {
      ...admin(server),
      body: { features: ['busy-flag'] },
    });
    const res = await server.request('DELETE', '/api/admin/projects/busy', admin(server));
    expect(res.status).toBe(200);
    expect(await readProject('busy')).toBe(404);
    const list = await server.request('GET', '/api/admin/projects', admin(server));
    expect(list.body.projects.map((p: { id: string }) => p.id)).not.toContain('busy');
    expect((await eventsOf(server, 'type=project-deleted'))[0]).toMatchObject({
      project: 'busy',
      preData: { id: 'busy' },
    });
    expect((await eventsOf(server, 'feature=busy-flag'))[0]!.type).toBe('feature-deleted');
    const archive = await server.request('GET', '/api/admin/archive/features', admin(server));
    expect(archive.body.features.map((f: { name: string }) => f.name)).not.toContain('busy-flag');
  });
});

describe('project environments', () => {
  const environmentsOf = async (feature: string, project = 'default') =>
    (await readFeature(server, feature, project)).body.environments?.map(
      (e: { name: string; enabled: boolean }) => `${e.name}:${e.enabled}`,
    );
  const linked = async (project: string) =>
    (await server.request('GET', `/api/admin/projects/${project}`, admin(server))).body.environments;

  it('adds an environment: 200, the project’s features get it disabled, project-environment-added', async () => {
    await server.request('POST', '/api/admin/environments', {
      ...admin(server),
      body: { name: 'staging', type: 'test' },
    });
    await createFeature(server, 'env-flag', 'shop');
    const res = await server.request('POST', '/api/admin/projects/shop/environments', {
      ...admin(server),
      body: { environment: 'staging' },
    });
    expect(res.status).toBe(200);
    expect(await linked('shop')).toContainEqual({ environment: 'staging' });
    expect(await environmentsOf('env-flag', 'shop')).toEqual([
      'development:false',
      'production:false',
      'staging:false',
    ]);
    expect((await eventsOf(server, 'type=project-environment-added'))[0]).toMatchObject({
      project: 'shop',
      environment: 'staging',
    });
    await createFeature(server, 'env-later', 'shop');
    expect(await environmentsOf('env-later', 'shop')).toContain('staging:false');
  });

  it('refuses duplicates (409), unknown projects and environments (404), bad bodies (400) and bad callers', async () => {
    const read = () => linked('shop');
    const url = '/api/admin/projects/shop/environments';
    await expectRefused(
      server,
      409,
      () => server.request('POST', url, { ...admin(server), body: { environment: 'staging' } }),
      read,
    );
    await expectRefused(
      server,
      404,
      () => server.request('POST', url, { ...admin(server), body: { environment: 'nowhere' } }),
      read,
    );
    await expectRefused(
      server,
      404,
      () =>
        server.request('POST', '/api/admin/projects/nope/environments', {
          ...admin(server),
          body: { environment: 'staging' },
        }),
      read,
    );
    for (const body of [{}, { environment: 5 }, { environment: '' }, { environment: 'e'.repeat(101) }]) {
      await expectRefused(
        server,
        400,
        () => server.request('POST', url, { ...admin(server), body }),
        read,
        JSON.stringify(body),
      );
    }
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url, body: { environment: 'staging' } },
      read,
    );
  });

  it('removes an environment: 200, the features lose it with their strategies there, project-environment-removed', async () => {
    await addStrategyAndVariants(server, 'env-flag', 'staging');
    const before = await countEvents(server, 'project-environment-removed');
    const res = await server.request(
      'DELETE',
      '/api/admin/projects/shop/environments/staging',
      admin(server),
    );
    expect(res.status).toBe(200);
    expect(await linked('shop')).not.toContainEqual({ environment: 'staging' });
    expect(await environmentsOf('env-flag', 'shop')).toEqual(['development:false', 'production:false']);
    const left = await server.ctx.db.query('SELECT 1 FROM feature_strategies WHERE feature_name = $1', [
      'env-flag',
    ]);
    expect(left.rows).toEqual([]);
    expect(await countEvents(server, 'project-environment-removed')).toBe(before + 1);
    const read = () => linked('shop');
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/projects/shop/environments/staging', admin(server)),
      read,
    );
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/projects/nope/environments/development', admin(server)),
      read,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'DELETE', url: '/api/admin/projects/shop/environments/development' },
      read,
    );
  });
});
