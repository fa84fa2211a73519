import { describe, expect, it } from 'vitest';
import { asAdmin, eventsAbout, expectStatus, projectMember } from '../../../test/feature-ops.js';
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
  await createFeature(server, 'batched');
  await expectStatus(
    server,
    200,
    'PUT',
    '/api/admin/projects/default/features/batched/environments/production/variants',
    [{ name: 'old', weight: 1, weightType: 'variable' }],
  );
});

const BATCH = (feature = 'batched', project = 'default') =>
  `/api/admin/projects/${project}/features/${feature}/variants-batch`;
const variantsIn = async (environment: string, feature = 'batched') =>
  (
    await asAdmin(
      server,
      'GET',
      `/api/admin/projects/default/features/${feature}/environments/${environment}/variants`,
    )
  ).body.variants;
const both = async () => ({
  development: await variantsIn('development'),
  production: await variantsIn('production'),
});

describe('PUT …/features/:featureName/variants-batch', () => {
  it('sets the list, weights fixed and sorted by name, in each environment named, an event each', async () => {
    const res = await expectStatus(server, 200, 'PUT', BATCH(), {
      environments: ['development', 'production'],
      variants: [
        { name: 'charlie', weight: 1, weightType: 'variable' },
        { name: 'alpha', weight: 1, weightType: 'variable', stickiness: 'userId' },
        { name: 'fixed', weight: 200, weightType: 'fix', payload: { type: 'json', value: '{"a":1}' } },
      ],
    });
    const expected = [
      { name: 'alpha', weight: 400, weightType: 'variable', stickiness: 'userId' },
      { name: 'charlie', weight: 400, weightType: 'variable', stickiness: 'default' },
      {
        name: 'fixed',
        weight: 200,
        weightType: 'fix',
        stickiness: 'default',
        payload: { type: 'json', value: '{"a":1}' },
      },
    ];
    expect(res.body).toEqual({ version: 1, variants: expected });
    expect(await both()).toEqual({ development: expected, production: expected });
    const events = await eventsAbout(server, 'batched', 'feature-environment-variants-updated');
    const byEnvironment = Object.fromEntries(events.slice(0, 2).map((e) => [e.environment, e]));
    expect(byEnvironment.development).toMatchObject({
      data: { variants: expected },
      preData: { variants: [] },
    });
    expect(byEnvironment.production).toMatchObject({
      preData: { variants: [expect.objectContaining({ name: 'old' })] },
    });
  });

  it('clears with an empty list, leaving the environments not named alone', async () => {
    await expectStatus(server, 200, 'PUT', BATCH(), { environments: ['production'], variants: [] });
    expect(await variantsIn('production')).toEqual([]);
    expect(await variantsIn('development')).toHaveLength(3);
  });

  it('refuses bad lists and missing environments (400), unknown features and environments (404), as a whole', async () => {
    const read = () => both();
    for (const body of [
      { variants: [{ name: 'a', weight: 1, weightType: 'variable' }] },
      { environments: [], variants: [] },
      { environments: ['development'] },
      { environments: ['development'], variants: [{ name: 'a', weight: 100, weightType: 'fix' }] },
      { environments: ['development'], variants: [{ name: 'a', weight: 1001, weightType: 'variable' }] },
      {
        environments: ['development'],
        variants: [
          { name: 'a', weight: 1, weightType: 'variable' },
          { name: 'a', weight: 1, weightType: 'variable' },
        ],
      },
    ]) {
      await expectRefused(
        server,
        400,
        () => asAdmin(server, 'PUT', BATCH(), body),
        read,
        JSON.stringify(body),
      );
    }
    const body = {
      environments: ['development', 'staging'],
      variants: [{ name: 'x', weight: 1, weightType: 'variable' }],
    };
    await expectRefused(server, 404, () => asAdmin(server, 'PUT', BATCH(), body), read);
    await createFeature(server, 'batched-gone');
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/batched-gone');
    for (const url of [BATCH('ghost'), BATCH('batched', 'other'), BATCH('batched-gone')]) {
      await expectRefused(
        server,
        404,
        () => asAdmin(server, 'PUT', url, { ...body, environments: ['development'] }),
        read,
      );
    }
  });

  it('needs the permission to change variants in every environment named', async () => {
    const read = () => both();
    const body = { environments: ['development', 'production'], variants: [] };
    await expectCallerRefusals(server, callers, { method: 'PUT', url: BATCH(), body }, read);
    const development = await projectMember(server, 'default', [
      { name: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', environment: 'development' },
    ]);
    await expectRefused(
      server,
      403,
      () => server.request('PUT', BATCH(), { token: development.pat, body }),
      read,
    );
    const res = await server.request('PUT', BATCH(), {
      token: development.pat,
      body: { ...body, environments: ['development'] },
    });
    expect(res.status).toBe(200);
    expect(await variantsIn('development')).toEqual([]);
  });
});
