import { describe, expect, it } from 'vitest';
import { asAdmin, expectStatus } from '../../../test/feature-ops.js';
import {
  CLIENT_TOKEN,
  callers,
  createFeature,
  createProject,
  readFeature,
  server,
  useFeatureServer,
} from '../../../test/features.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
  await createFeature(server, 'env-read');
  await expectStatus(
    server,
    200,
    'POST',
    '/api/admin/projects/default/features/env-read/environments/development/strategies',
    {
      name: 'default',
      title: 'Everyone',
    },
  );
  await expectStatus(
    server,
    200,
    'PUT',
    '/api/admin/projects/default/features/env-read/environments/development/variants',
    [{ name: 'blue', weight: 1, weightType: 'variable' }],
  );
  await expectStatus(
    server,
    200,
    'POST',
    '/api/admin/projects/default/features/env-read/environments/development/on',
  );
});

const URL = (feature: string, environment: string, project = 'default') =>
  `/api/admin/projects/${project}/features/${feature}/environments/${environment}`;

describe('GET …/features/:featureName/environments/:environment', () => {
  it('answers the feature in the environment, as the feature shows it, named after the feature', async () => {
    const res = await asAdmin(server, 'GET', URL('env-read', 'development'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'env-read',
      featureName: 'env-read',
      environment: 'development',
      type: 'development',
      enabled: true,
      variantCount: 1,
      variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
      strategies: [{ name: 'default', title: 'Everyone', disabled: false, featureName: 'env-read' }],
      hasStrategies: true,
      hasEnabledStrategies: true,
      lastSeenAt: null,
      safeguards: [],
    });
    const feature = (await readFeature(server, 'env-read')).body;
    const development = feature.environments.find((e: { name: string }) => e.name === 'development');
    // As the feature shows it, with the environment's safeguard (see Safeguards) besides.
    expect({ ...development, name: 'env-read', safeguards: [] }).toEqual(res.body);
    const production = await asAdmin(server, 'GET', URL('env-read', 'production'));
    expect(production.body).toMatchObject({
      enabled: false,
      strategies: [],
      variants: [],
      hasStrategies: false,
    });
  });

  it('answers any user, not a client token or no credentials', async () => {
    const viewer = await server.request('GET', URL('env-read', 'development'), { token: callers.viewer.pat });
    expect(viewer.status).toBe(200);
    expect(
      (await server.request('GET', URL('env-read', 'development'), { token: CLIENT_TOKEN })).status,
    ).toBe(403);
    const none = await server.request('GET', URL('env-read', 'development'));
    expect(none.status).toBe(401);
    expect(none.body.name).toBe('AuthenticationRequired');
  });

  it('answers 404 for an unknown feature or environment, another project, and an archived feature', async () => {
    await createFeature(server, 'env-archived');
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/env-archived');
    for (const url of [
      URL('ghost', 'development'),
      URL('env-read', 'staging'),
      URL('env-read', 'development', 'other'),
      URL('env-archived', 'development'),
    ]) {
      const res = await asAdmin(server, 'GET', url);
      expect(res.status, url).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
    }
  });
});
