import { describe, expect, it } from 'vitest';
import { archivedFeatures, featureLists, listedFeatures } from '../../../test/archive.js';
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
import { admin, send } from '../../../test/requests.js';
import { countEvents, createUser } from '../../../test/server.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
});

describe('E9 POST /api/admin/projects/:projectId/archive', () => {
  it('archives the named live features: 202, gone from the list and GET, one event each', async () => {
    await createFeature(server, 'arch-a');
    await createFeature(server, 'arch-b');
    await createFeature(server, 'arch-keep');
    const before = await countEvents(server, 'feature-archived');
    const res = await send(server, 'POST', '/api/admin/projects/default/archive', {
      features: ['arch-a', 'arch-b', 'no-such'],
    });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    const live = await listedFeatures();
    expect(live).not.toContain('arch-a');
    expect(live).not.toContain('arch-b');
    expect(live).toContain('arch-keep');
    expect((await readFeature(server, 'arch-a')).status).toBe(404);
    expect(await countEvents(server, 'feature-archived')).toBe(before + 2);
    expect((await eventsOf(server, 'feature=arch-a'))[0]).toMatchObject({
      type: 'feature-archived',
      featureName: 'arch-a',
      project: 'default',
    });
    expect(await archivedFeatures('default')).toEqual(expect.arrayContaining(['arch-a', 'arch-b']));
  });

  it('ignores features already archived and empty lists: no new events', async () => {
    const before = await countEvents(server);
    expect(
      (await send(server, 'POST', '/api/admin/projects/default/archive', { features: ['arch-a'] })).status,
    ).toBe(202);
    expect((await send(server, 'POST', '/api/admin/projects/default/archive', { features: [] })).status).toBe(
      202,
    );
    expect(
      (await send(server, 'POST', '/api/admin/projects/no-such-project/archive', { features: ['nope'] }))
        .status,
    ).toBe(202);
    expect(await countEvents(server)).toBe(before);
  });

  it('keeps strategies and variants of archived features', async () => {
    await createFeature(server, 'arch-config');
    const { id, variants } = await addStrategyAndVariants(server, 'arch-config', 'development');
    await send(server, 'POST', '/api/admin/projects/default/archive', { features: ['arch-config'] });
    const rows = await server.ctx.db.query<{ id: string }>(
      'SELECT id FROM feature_strategies WHERE feature_name = $1',
      ['arch-config'],
    );
    expect(rows.rows.map((r) => r.id)).toEqual([id]);
    await send(server, 'POST', '/api/admin/projects/default/revive', { features: ['arch-config'] });
    const env = (await readFeature(server, 'arch-config')).body.environments.find(
      (e: { name: string }) => e.name === 'development',
    );
    expect(env.strategies.map((s: { id: string }) => s.id)).toEqual([id]);
    expect(env.variants).toEqual(variants);
  });

  it('refuses the whole list with 403 when a named feature is in another project, whether or not the project exists', async () => {
    await createFeature(server, 'arch-other', 'other');
    for (const project of ['default', 'no-such-project']) {
      const res = await expectRefused(
        server,
        403,
        () =>
          send(server, 'POST', `/api/admin/projects/${project}/archive`, {
            features: ['arch-keep', 'arch-other'],
          }),
        featureLists,
        project,
      );
      expect(res.body.message).toContain('arch-other');
    }
  });

  it('refuses bad bodies with 400 and bad callers', async () => {
    const url = '/api/admin/projects/default/archive';
    for (const body of [{}, { features: 'arch-keep' }, { features: [1] }, [], { features: null }]) {
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
      { method: 'POST', url, body: { features: ['arch-keep'] } },
      featureLists,
    );
  });
});

describe('DELETE /api/admin/projects/:projectId/features/:featureName', () => {
  it('archives one feature: 202 and a feature-archived event', async () => {
    await createFeature(server, 'arch-single');
    const res = await server.request(
      'DELETE',
      '/api/admin/projects/default/features/arch-single',
      admin(server),
    );
    expect(res.status).toBe(202);
    expect((await readFeature(server, 'arch-single')).status).toBe(404);
    expect((await eventsOf(server, 'feature=arch-single'))[0]!.type).toBe('feature-archived');
  });

  it('answers 404 for unknown, archived or other-project features, and refuses bad callers', async () => {
    for (const url of [
      '/api/admin/projects/default/features/nope',
      '/api/admin/projects/default/features/arch-single',
      '/api/admin/projects/default/features/arch-other',
    ]) {
      await expectRefused(server, 404, () => server.request('DELETE', url, admin(server)), featureLists, url);
    }
    await expectCallerRefusals(
      server,
      callers,
      { method: 'DELETE', url: '/api/admin/projects/default/features/arch-keep' },
      featureLists,
    );
  });
});

describe('E12 POST /api/admin/projects/:projectId/revive', () => {
  it('revives archived features disabled everywhere, with their strategies: 200, one event each', async () => {
    await createFeature(server, 'rev-a');
    await createFeature(server, 'rev-live');
    const { id } = await addStrategyAndVariants(server, 'rev-a', 'production');
    await setEnabled(server, 'rev-a', 'development', true);
    await setEnabled(server, 'rev-a', 'production', true);
    await setEnabled(server, 'rev-live', 'development', true);
    await send(server, 'POST', '/api/admin/projects/default/archive', { features: ['rev-a'] });
    const before = await countEvents(server, 'feature-revived');
    const res = await send(server, 'POST', '/api/admin/projects/default/revive', {
      features: ['rev-a', 'rev-live', 'no-such'],
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await countEvents(server, 'feature-revived')).toBe(before + 1);
    expect((await eventsOf(server, 'feature=rev-a'))[0]).toMatchObject({
      type: 'feature-revived',
      project: 'default',
    });
    expect(await listedFeatures()).toContain('rev-a');
    const feature = (await readFeature(server, 'rev-a')).body;
    expect(feature.archived).toBe(false);
    expect(feature.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, false]);
    expect(feature.environments[1].strategies.map((s: { id: string }) => s.id)).toEqual([id]);
    const live = (await readFeature(server, 'rev-live')).body;
    expect(live.environments[0].enabled).toBe(true);
    expect(await archivedFeatures()).not.toContain('rev-a');
  });

  it('answers 404 for an unknown project and 403 for another project’s feature, changing nothing', async () => {
    await createFeature(server, 'rev-other', 'other');
    await send(server, 'POST', '/api/admin/projects/other/archive', { features: ['rev-other'] });
    await send(server, 'POST', '/api/admin/projects/default/archive', { features: ['rev-live'] });
    await expectRefused(
      server,
      404,
      () => send(server, 'POST', '/api/admin/projects/no-such-project/revive', { features: ['rev-live'] }),
      featureLists,
    );
    await expectRefused(
      server,
      403,
      () =>
        send(server, 'POST', '/api/admin/projects/default/revive', { features: ['rev-live', 'rev-other'] }),
      featureLists,
    );
  });

  it('refuses bad bodies (400), text/plain (415) and bad callers', async () => {
    const url = '/api/admin/projects/default/revive';
    for (const body of [{}, { features: 'rev-live' }, { features: [true] }]) {
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
      { method: 'POST', url, body: { features: ['rev-live'] } },
      featureLists,
    );
  });
});

describe('POST /api/admin/archive/revive/:featureName', () => {
  it('revives one archived feature, disabled; a live one is left alone; 404 for unknown', async () => {
    await setEnabled(server, 'rev-live', 'development', true);
    const res = await server.request('POST', '/api/admin/archive/revive/rev-live', admin(server));
    expect(res.status).toBe(200);
    expect((await readFeature(server, 'rev-live')).body.environments[0].enabled).toBe(false);
    const before = await countEvents(server);
    expect((await server.request('POST', '/api/admin/archive/revive/rev-live', admin(server))).status).toBe(
      200,
    );
    expect(await countEvents(server)).toBe(before);
    await expectRefused(
      server,
      404,
      () => server.request('POST', '/api/admin/archive/revive/nope', admin(server)),
      featureLists,
    );
  });

  it('checks the permission in the feature’s project', async () => {
    const member = await createUser(server, 3);
    await grantRole(server, member.id, 'default');
    await createFeature(server, 'rev-member');
    await send(server, 'POST', '/api/admin/projects/default/archive', { features: ['rev-member'] });
    await expectRefused(
      server,
      403,
      () => server.request('POST', '/api/admin/archive/revive/rev-other', { token: member.pat }),
      featureLists,
    );
    expect(
      (await server.request('POST', '/api/admin/archive/revive/rev-member', { token: member.pat })).status,
    ).toBe(200);
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url: '/api/admin/archive/revive/rev-other', jsonBody: false },
      featureLists,
    );
  });
});
