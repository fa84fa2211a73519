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
  readFeature,
  server,
  useFeatureServer,
} from '../../../test/features.js';

const FEATURE = '/api/admin/projects/default/features/original';
const CLONE = `${FEATURE}/clone`;
let segment: number;

useFeatureServer(async () => {
  await createProject(server, 'other');
  await createFeature(server, 'original', 'default', {
    description: 'The original',
    type: 'experiment',
    impressionData: true,
  });
  segment = (
    await expectStatus(server, 201, 'POST', '/api/admin/segments', { name: 'beta-users', constraints: [] })
  ).body.id;
  await expectStatus(server, 200, 'POST', `${FEATURE}/environments/development/strategies`, {
    name: 'flexibleRollout',
    parameters: { rollout: '30', stickiness: 'userId', groupId: 'original' },
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }],
    segments: [segment],
    variants: [{ name: 'v', weight: 1, weightType: 'variable', stickiness: 'default' }],
  });
  await expectStatus(server, 200, 'POST', `${FEATURE}/environments/production/strategies`, {
    name: 'userWithId',
    parameters: { userIds: 'x,y' },
    title: 'Testers',
  });
  await expectStatus(server, 200, 'PUT', `${FEATURE}/environments/production/variants`, [
    { name: 'blue', weight: 1, weightType: 'variable' },
  ]);
  await expectStatus(server, 200, 'POST', `${FEATURE}/environments/development/on`);
  await expectStatus(server, 201, 'POST', '/api/admin/features/original/tags', { value: 'kept-home' });
});

describe('POST …/features/:featureName/clone', () => {
  it('makes a copy (201) with the metadata, strategies and variants, switched off, under its own group id', async () => {
    const res = await expectStatus(server, 201, 'POST', CLONE, { name: 'copy' });
    expect(res.body).toMatchObject({
      name: 'copy',
      project: 'default',
      description: 'The original',
      type: 'experiment',
      impressionData: true,
      stale: false,
      archived: false,
    });
    const development = await featureEnvironment(server, 'copy', 'development');
    expect(development.enabled).toBe(false);
    expect(development.strategies).toEqual([
      expect.objectContaining({
        name: 'flexibleRollout',
        featureName: 'copy',
        parameters: { rollout: '30', stickiness: 'userId', groupId: 'copy' },
        constraints: [expect.objectContaining({ contextName: 'userId', values: ['a'] })],
        segments: [segment],
        variants: [expect.objectContaining({ name: 'v', weight: 1000 })],
      }),
    ]);
    const original = await featureEnvironment(server, 'original', 'development');
    expect(development.strategies[0].id).not.toBe(original.strategies[0].id);
    const production = await featureEnvironment(server, 'copy', 'production');
    expect(production.strategies).toEqual([
      expect.objectContaining({ name: 'userWithId', title: 'Testers', parameters: { userIds: 'x,y' } }),
    ]);
    expect(production.variants).toEqual([expect.objectContaining({ name: 'blue', weight: 1000 })]);
    expect((await asAdmin(server, 'GET', '/api/admin/features/copy/tags')).body.tags).toEqual([]);
    expect((await readFeature(server, 'copy')).body.lifecycle.stage).toBe('initial');
  });

  it('records feature-created and a feature-strategy-add per strategy', async () => {
    const [created] = await eventsAbout(server, 'copy', 'feature-created');
    expect(created).toMatchObject({ project: 'default', data: { name: 'copy', type: 'experiment' } });
    const added = await eventsAbout(server, 'copy', 'feature-strategy-add');
    expect(added.map((e) => e.environment).sort()).toEqual(['development', 'production']);
  });

  it('keeps the group id when asked not to replace it', async () => {
    await expectStatus(server, 201, 'POST', CLONE, { name: 'same-group', replaceGroupId: false });
    const env = await featureEnvironment(server, 'same-group', 'development');
    expect(env.strategies[0].parameters.groupId).toBe('original');
  });

  it('refuses a taken name (409), a bad body (400), unknown, archived or misplaced originals (404)', async () => {
    const read = () => asAdmin(server, 'GET', '/api/admin/projects/default/features').then((r) => r.body);
    await expectRefused(server, 409, () => asAdmin(server, 'POST', CLONE, { name: 'copy' }), read);
    for (const body of [{}, { name: 'bad name' }, { name: '' }, { name: 'fine', replaceGroupId: 'yes' }]) {
      await expectRefused(server, 400, () => asAdmin(server, 'POST', CLONE, body), read);
    }
    await createFeature(server, 'gone');
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/gone');
    for (const url of [
      '/api/admin/projects/default/features/ghost/clone',
      '/api/admin/projects/default/features/gone/clone',
      '/api/admin/projects/other/features/original/clone',
    ]) {
      await expectRefused(server, 404, () => asAdmin(server, 'POST', url, { name: 'nowhere' }), read);
    }
  });

  it('needs CREATE_FEATURE in the project', async () => {
    const read = () => asAdmin(server, 'GET', '/api/admin/projects/default/features').then((r) => r.body);
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url: CLONE, body: { name: 'x-copy' } },
      read,
    );
    const other = await projectMember(server, 'other', ['CREATE_FEATURE']);
    await expectRefused(
      server,
      403,
      () => server.request('POST', CLONE, { token: other.pat, body: { name: 'x-copy' } }),
      read,
    );
    const maker = await projectMember(server, 'default', ['CREATE_FEATURE']);
    const res = await server.request('POST', CLONE, { token: maker.pat, body: { name: 'x-copy' } });
    expect(res.status).toBe(201);
  });
});
