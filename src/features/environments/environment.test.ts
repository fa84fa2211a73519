import { describe, expect, it } from 'vitest';
import {
  addStrategy,
  CLIENT_TOKEN,
  callers,
  environmentPath,
  expectRefused,
  lastEvent,
  makeFeature,
  makeProject,
  readFeature,
  server,
  useFeatureModelServer,
} from '../../../test/feature-model.js';
import { countEvents, createUser, writeDirectly } from '../../../test/server.js';

useFeatureModelServer(async () => {
  await makeProject(server, 'other');
  await makeFeature(server, 'banner');
});

const switchTo = (
  state: 'on' | 'off',
  options: {
    feature?: string;
    environment?: string;
    project?: string;
    token?: string;
    contentType?: string;
    body?: unknown;
  } = {},
) =>
  server.request(
    'POST',
    `${environmentPath(options.feature ?? 'banner', options.environment, options.project)}/${state}`,
    {
      token: options.token ?? server.adminToken,
      contentType: options.contentType,
      body: options.body,
    },
  );
const environments = async (feature = 'banner') => (await readFeature(server, feature)).environments;

describe('POST …/environments/:environment/on and /off', () => {
  it('turns on an environment without strategies by adding a 100% gradual rollout; events for both', async () => {
    const [added, enabled] = [
      await countEvents(server, 'feature-strategy-add'),
      await countEvents(server, 'feature-environment-enabled'),
    ];
    const res = await switchTo('on', { token: callers.editor });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const [development, production] = await environments();
    expect(development.enabled).toBe(true);
    expect(production.enabled).toBe(false);
    expect(development.strategies).toMatchObject([
      {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: 'banner' },
        constraints: [],
        sortOrder: 0,
      },
    ]);
    expect(await countEvents(server, 'feature-strategy-add')).toBe(added + 1);
    expect(await countEvents(server, 'feature-environment-enabled')).toBe(enabled + 1);
    expect(await lastEvent(server, 'feature-environment-enabled')).toMatchObject({
      featureName: 'banner',
      project: 'default',
      environment: 'development',
    });
  });

  it('writes no event and adds nothing when the state does not change', async () => {
    const events = await countEvents(server);
    expect((await switchTo('on')).status).toBe(200);
    expect((await environments())[0].strategies).toHaveLength(1);
    expect((await switchTo('off', { environment: 'production' })).status).toBe(200);
    expect(await countEvents(server)).toBe(events);
  });

  it('turns off, keeping the strategies; turning on again adds none', async () => {
    const disabled = await countEvents(server, 'feature-environment-disabled');
    expect((await switchTo('off')).status).toBe(200);
    const [development] = await environments();
    expect(development.enabled).toBe(false);
    expect(development.strategies).toHaveLength(1);
    expect(await countEvents(server, 'feature-environment-disabled')).toBe(disabled + 1);
    await switchTo('on');
    expect((await environments())[0].strategies).toHaveLength(1);
  });

  it('takes any content type, or none, and ignores a body', async () => {
    expect((await switchTo('off', { contentType: 'text/plain', body: 'whatever' })).status).toBe(200);
    expect((await switchTo('on', { contentType: 'application/json' })).status).toBe(200);
    expect((await switchTo('off', { body: { enabled: true } })).status).toBe(200);
    expect((await environments())[0].enabled).toBe(false);
  });

  it('answers 404 for unknown features, environments, projects and archived features', async () => {
    const read = () => environments();
    await expectRefused(server, read, () => switchTo('on', { feature: 'nope' }), 404);
    await expectRefused(server, read, () => switchTo('on', { environment: 'staging' }), 404);
    await expectRefused(server, read, () => switchTo('on', { project: 'other' }), 404);
    await expectRefused(server, read, () => switchTo('on', { project: 'nope' }), 404);
    await makeFeature(server, 'gone');
    await writeDirectly(server, 'UPDATE features SET archived_at = now() WHERE name = $1', ['gone']);
    await expectRefused(server, read, () => switchTo('on', { feature: 'gone' }), 404);
  });

  it('is refused to Viewers and client tokens (403) and without a token (401)', async () => {
    const read = () => environments();
    await expectRefused(server, read, () => switchTo('on', { token: callers.viewer }), 403);
    await expectRefused(server, read, () => switchTo('on', { token: CLIENT_TOKEN }), 403);
    await expectRefused(server, read, () => server.request('POST', `${environmentPath('banner')}/on`), 401);
  });
});

describe('per-environment permissions', () => {
  it('lets a project role limited to development change development only', async () => {
    await makeFeature(server, 'scoped');
    const db = server.ctx.db;
    const role = await db.query<{ id: number }>(
      `INSERT INTO roles (name, description, type) VALUES ('Dev only', 'Strategies in development', 'custom') RETURNING id`,
    );
    const roleId = role.rows[0]!.id;
    for (const permission of [
      'CREATE_FEATURE_STRATEGY',
      'UPDATE_FEATURE_STRATEGY',
      'DELETE_FEATURE_STRATEGY',
      'UPDATE_FEATURE_ENVIRONMENT',
      'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    ]) {
      await db.query(
        `INSERT INTO role_permissions (role_id, permission, environment) VALUES ($1, $2, 'development')`,
        [roleId, permission],
      );
    }
    const user = await createUser(server, 3);
    await db.query(`INSERT INTO role_user (role_id, user_id, project) VALUES ($1, $2, 'default')`, [
      roleId,
      user.id,
    ]);
    const as = { token: user.pat };
    const dev = environmentPath('scoped', 'development');
    const prod = environmentPath('scoped', 'production');
    const prodStrategy = await addStrategy(server, 'scoped', { name: 'default' }, 'production');
    const read = () => readFeature(server, 'scoped');

    const created = await server.request('POST', `${dev}/strategies`, { ...as, body: { name: 'default' } });
    expect(created.status).toBe(200);
    expect(
      (
        await server.request('PUT', `${dev}/strategies/${created.body.id}`, {
          ...as,
          body: { title: 'mine' },
        })
      ).status,
    ).toBe(200);
    expect((await server.request('POST', `${dev}/on`, as)).status).toBe(200);
    expect(
      (await server.request('PUT', `${dev}/variants`, { ...as, body: [{ name: 'a', weight: 1 }] })).status,
    ).toBe(200);
    expect((await server.request('DELETE', `${dev}/strategies/${created.body.id}`, as)).status).toBe(200);

    await expectRefused(
      server,
      read,
      () => server.request('POST', `${prod}/strategies`, { ...as, body: { name: 'default' } }),
      403,
    );
    await expectRefused(
      server,
      read,
      () => server.request('PUT', `${prod}/strategies/${prodStrategy.id}`, { ...as, body: { title: 'x' } }),
      403,
    );
    await expectRefused(
      server,
      read,
      () => server.request('DELETE', `${prod}/strategies/${prodStrategy.id}`, as),
      403,
    );
    await expectRefused(server, read, () => server.request('POST', `${prod}/on`, as), 403);
    await expectRefused(
      server,
      read,
      () => server.request('PUT', `${prod}/variants`, { ...as, body: [] }),
      403,
    );
    // a production strategy cannot be reached through a development path either
    await expectRefused(
      server,
      read,
      () => server.request('PUT', `${dev}/strategies/${prodStrategy.id}`, { ...as, body: { title: 'x' } }),
      403,
    );
    // and the role gives nothing in another project
    await makeFeature(server, 'foreign', 'other');
    await expectRefused(
      server,
      read,
      () =>
        server.request('POST', `${environmentPath('foreign', 'development', 'other')}/strategies`, {
          ...as,
          body: { name: 'default' },
        }),
      403,
    );
  });
});
