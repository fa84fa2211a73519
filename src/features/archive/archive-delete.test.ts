import { describe, expect, it } from 'vitest';
import { archivedFeatures, featureLists, listedFeatures } from '../../../test/archive.js';
import {
  callers,
  createFeature,
  createProject,
  eventsOf,
  expectCallerRefusals,
  expectRefused,
  server,
  useFeatureServer,
} from '../../../test/features.js';
import { admin, send } from '../../../test/requests.js';
import { countEvents } from '../../../test/server.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
  for (const name of ['arch-a', 'arch-b', 'arch-keep']) await createFeature(server, name);
  await createFeature(server, 'rev-other', 'other');
  await server.request('POST', '/api/admin/projects/default/archive', {
    token: server.adminToken,
    body: { features: ['arch-a', 'arch-b'] },
  });
  await server.request('POST', '/api/admin/projects/other/archive', {
    token: server.adminToken,
    body: { features: ['rev-other'] },
  });
});

describe('archived lists', () => {
  it('lists archived features of all projects and of one, newest first; 404 for an unknown project', async () => {
    const all = await server.request('GET', '/api/admin/archive/features', { token: callers.viewer.pat });
    expect(all.status).toBe(200);
    expect(all.body.version).toBe(2);
    const names = all.body.features.map((f: { name: string }) => f.name);
    expect(names).toEqual(expect.arrayContaining(['arch-a', 'rev-other']));
    expect(all.body.features.find((f: { name: string }) => f.name === 'rev-other')).toMatchObject({
      project: 'other',
      archived: true,
    });
    const times = all.body.features.map((f: { archivedAt: string }) => Date.parse(f.archivedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await archivedFeatures('other')).toEqual(['rev-other']);
    expect((await server.request('GET', '/api/admin/archive/features/nope', admin(server))).status).toBe(404);
    expect((await server.request('GET', '/api/admin/archive/features', { token: 'x' })).status).toBe(401);
  });
});

describe('deleting archived features for good', () => {
  it('DELETE /api/admin/archive/:featureName deletes an archived feature: 200, feature-deleted with its tags, name free', async () => {
    await createFeature(server, 'del-one');
    await server.request('POST', '/api/admin/features/del-one/tags', {
      ...admin(server),
      body: { value: 'doomed' },
    });
    await send(server, 'POST', '/api/admin/projects/default/archive', { features: ['del-one'] });
    const res = await server.request('DELETE', '/api/admin/archive/del-one', admin(server));
    expect(res.status).toBe(200);
    expect(await archivedFeatures()).not.toContain('del-one');
    const event = (await eventsOf(server, 'feature=del-one'))[0]!;
    expect(event).toMatchObject({
      type: 'feature-deleted',
      project: 'default',
      preData: { name: 'del-one', tags: [{ type: 'simple', value: 'doomed' }] },
    });
    expect(
      (
        await server.request('POST', '/api/admin/features/validate', {
          ...admin(server),
          body: { name: 'del-one' },
        })
      ).status,
    ).toBe(200);
  });

  it('refuses a live feature (409) and an unknown one (404)', async () => {
    await expectRefused(
      server,
      409,
      () => server.request('DELETE', '/api/admin/archive/arch-keep', admin(server)),
      featureLists,
    );
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/archive/nope', admin(server)),
      featureLists,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'DELETE', url: '/api/admin/archive/arch-a' },
      featureLists,
    );
  });

  it('POST /api/admin/projects/:projectId/delete deletes the named archived features only', async () => {
    const before = await countEvents(server, 'feature-deleted');
    const res = await send(server, 'POST', '/api/admin/projects/default/delete', {
      features: ['arch-a', 'arch-keep', 'no-such'],
    });
    expect(res.status).toBe(200);
    expect(await archivedFeatures()).not.toContain('arch-a');
    expect(await listedFeatures()).toContain('arch-keep');
    expect(await countEvents(server, 'feature-deleted')).toBe(before + 1);
    const url = '/api/admin/projects/default/delete';
    await expectRefused(
      server,
      403,
      () => send(server, 'POST', url, { features: ['arch-b', 'rev-other'] }),
      featureLists,
      'other project',
    );
    for (const body of [{}, { features: 'arch-b' }]) {
      await expectRefused(
        server,
        400,
        () => send(server, 'POST', url, body),
        featureLists,
        JSON.stringify(body),
      );
    }
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url, body: { features: ['arch-b'] } },
      featureLists,
    );
  });
});
