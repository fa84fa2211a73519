import { describe, expect, it } from 'vitest';
import {
  callers,
  createFeature,
  createProject,
  eventsOf,
  expectCallerRefusals,
  expectRefused,
  readMetadata,
  server,
  useFeatureServer,
} from '../../../test/features.js';
import { admin } from '../../../test/requests.js';
import { countEvents } from '../../../test/server.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
});

const put = (name: string, body: unknown, project = 'default') =>
  server.request('PUT', `/api/admin/projects/${project}/features/${name}`, { ...admin(server), body });

describe('PUT /api/admin/projects/:projectId/features/:featureName', () => {
  it('replaces the metadata: 200, read back, feature-metadata-updated with preData, feature-stale-on', async () => {
    await createFeature(server, 'put-me', 'default', { description: 'old', type: 'experiment' });
    const res = await put('put-me', {
      description: 'new',
      type: 'operational',
      stale: true,
      impressionData: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'put-me',
      project: 'default',
      description: 'new',
      type: 'operational',
      stale: true,
      impressionData: true,
      archived: false,
    });
    expect(await readMetadata('put-me')).toMatchObject({
      description: 'new',
      type: 'operational',
      stale: true,
    });
    const events = await eventsOf(server, 'feature=put-me');
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(['feature-stale-on', 'feature-metadata-updated']);
    expect(events[1]).toMatchObject({
      project: 'default',
      featureName: 'put-me',
      preData: { description: 'old', type: 'experiment', stale: false },
      data: { description: 'new', type: 'operational', stale: true },
    });
  });

  it('keeps an omitted description and resets omitted type, stale and impressionData, as Unleash does', async () => {
    const res = await put('put-me', { name: 'put-me' });
    expect(res.status).toBe(200);
    expect(await readMetadata('put-me')).toMatchObject({
      description: 'new',
      type: 'release',
      stale: false,
      impressionData: false,
    });
    const events = await eventsOf(server, 'feature=put-me');
    expect(events[0]!.type).toBe('feature-stale-off');
  });

  it('writes no event when nothing changes', async () => {
    const before = await countEvents(server);
    expect((await put('put-me', { description: 'new' })).status).toBe(200);
    expect(await countEvents(server)).toBe(before);
  });

  it('refuses renaming (400) and bad bodies (400), changing nothing', async () => {
    const read = () => readMetadata('put-me');
    const bodies: unknown[] = [
      { name: 'renamed' },
      { stale: 'yes' },
      { impressionData: 1 },
      { description: 7 },
      { type: 5 },
      { type: '' },
      { type: 't'.repeat(101) },
      { description: 'd'.repeat(1001) },
      [],
      'text',
    ];
    for (const body of bodies) {
      await expectRefused(server, 400, () => put('put-me', body), read, JSON.stringify(body));
    }
    expect(
      (await server.request('GET', '/api/admin/projects/default/features/renamed', admin(server))).status,
    ).toBe(404);
  });

  it('answers 404 for an unknown, archived or other-project feature and an unknown project', async () => {
    await createFeature(server, 'put-archived');
    await server.request('DELETE', '/api/admin/projects/default/features/put-archived', admin(server));
    const read = () => readMetadata('put-me');
    for (const [name, project] of [
      ['nope', 'default'],
      ['put-archived', 'default'],
      ['put-me', 'other'],
      ['put-me', 'no-such-project'],
    ] as const) {
      await expectRefused(
        server,
        404,
        () => put(name, { description: 'x' }, project),
        read,
        `${project}/${name}`,
      );
    }
  });

  it('archives the feature when archived is true, with a feature-archived event', async () => {
    await createFeature(server, 'put-to-archive');
    const res = await put('put-to-archive', { archived: true });
    expect(res.status).toBe(200);
    expect(res.body.archived).toBe(true);
    expect(await readMetadata('put-to-archive')).toBe(404);
    expect((await eventsOf(server, 'feature=put-to-archive'))[0]!.type).toBe('feature-archived');
  });

  it('refuses callers without the permission', async () => {
    await expectCallerRefusals(
      server,
      callers,
      { method: 'PUT', url: '/api/admin/projects/default/features/put-me', body: { description: 'hacked' } },
      () => readMetadata('put-me'),
    );
  });
});

describe('POST /api/admin/projects/:projectId/stale', () => {
  it('marks the named features stale and back: 202, one event per feature that changed', async () => {
    await createFeature(server, 'stale-a');
    await createFeature(server, 'stale-b');
    const before = await countEvents(server, 'feature-stale-on');
    const res = await server.request('POST', '/api/admin/projects/default/stale', {
      ...admin(server),
      body: { features: ['stale-a', 'stale-b', 'no-such-feature'], stale: true },
    });
    expect(res.status).toBe(202);
    expect(await readMetadata('stale-a')).toMatchObject({ stale: true });
    expect(await readMetadata('stale-b')).toMatchObject({ stale: true });
    expect(await countEvents(server, 'feature-stale-on')).toBe(before + 2);
    await server.request('POST', '/api/admin/projects/default/stale', {
      ...admin(server),
      body: { features: ['stale-a'], stale: true },
    });
    expect(await countEvents(server, 'feature-stale-on')).toBe(before + 2);
    await server.request('POST', '/api/admin/projects/default/stale', {
      ...admin(server),
      body: { features: ['stale-a'], stale: false },
    });
    expect(await readMetadata('stale-a')).toMatchObject({ stale: false });
    expect((await eventsOf(server, 'feature=stale-a'))[0]!.type).toBe('feature-stale-off');
  });

  it('refuses bad bodies (400), another project’s feature (403) and bad callers', async () => {
    await createFeature(server, 'stale-other', 'other');
    const read = async () => [await readMetadata('stale-a'), await readMetadata('stale-other', 'other')];
    const url = '/api/admin/projects/default/stale';
    for (const body of [
      { features: ['stale-a'] },
      { stale: true },
      { features: 'stale-a', stale: true },
      { features: ['stale-a'], stale: 'yes' },
    ]) {
      await expectRefused(
        server,
        400,
        () => server.request('POST', url, { ...admin(server), body }),
        read,
        JSON.stringify(body),
      );
    }
    await expectRefused(
      server,
      403,
      () =>
        server.request('POST', url, {
          ...admin(server),
          body: { features: ['stale-a', 'stale-other'], stale: true },
        }),
      read,
      'other project',
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url, body: { features: ['stale-a'], stale: true } },
      read,
    );
  });
});

describe('POST /api/admin/features/validate', () => {
  it('answers 200 for a free name, 409 for a taken one (archived too), 400 for a bad one', async () => {
    const validate = (body: unknown) =>
      server.request('POST', '/api/admin/features/validate', { ...admin(server), body });
    expect((await validate({ name: 'brand-new' })).status).toBe(200);
    expect((await validate({ name: 'put-me' })).status).toBe(409);
    expect((await validate({ name: 'put-to-archive' })).status).toBe(409);
    for (const body of [{ name: 'has space' }, { name: '' }, { name: 'x'.repeat(101) }, {}, { name: 5 }]) {
      expect((await validate(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (
        await server.request('POST', '/api/admin/features/validate', {
          token: callers.viewer.pat,
          body: { name: 'v' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await server.request('POST', '/api/admin/features/validate', { body: { name: 'v' } })).status,
    ).toBe(401);
  });
});

describe('GET /api/admin/feature-types', () => {
  it('lists the seeded types with their lifetimes', async () => {
    const res = await server.request('GET', '/api/admin/feature-types', { token: callers.viewer.pat });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.types.map((t: { id: string }) => t.id).sort()).toEqual([
      'experiment',
      'kill-switch',
      'operational',
      'permission',
      'release',
    ]);
    expect(res.body.types.find((t: { id: string }) => t.id === 'release')).toMatchObject({
      name: 'Release',
      lifetimeDays: 40,
    });
  });

  it('lets an Admin change a lifetime (feature-type-updated) and nobody else', async () => {
    const url = '/api/admin/feature-types/release/lifetime';
    const read = async () => (await server.request('GET', '/api/admin/feature-types', admin(server))).body;
    const res = await server.request('PUT', url, { ...admin(server), body: { lifetimeDays: 60 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'release', lifetimeDays: 60 });
    expect((await eventsOf(server, 'type=feature-type-updated'))[0]).toMatchObject({
      data: { lifetimeDays: 60 },
      preData: { lifetimeDays: 40 },
    });
    for (const body of [
      { lifetimeDays: -1 },
      { lifetimeDays: 'ten' },
      {},
      { lifetimeDays: 1, extra: true },
    ]) {
      await expectRefused(
        server,
        400,
        () => server.request('PUT', url, { ...admin(server), body }),
        read,
        JSON.stringify(body),
      );
    }
    await expectRefused(
      server,
      404,
      () =>
        server.request('PUT', '/api/admin/feature-types/nope/lifetime', {
          ...admin(server),
          body: { lifetimeDays: 1 },
        }),
      read,
    );
    await expectCallerRefusals(server, callers, { method: 'PUT', url, body: { lifetimeDays: 1 } }, read);
  });
});
