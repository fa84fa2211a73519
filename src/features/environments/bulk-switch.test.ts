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
  server,
  useFeatureServer,
} from '../../../test/features.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
  for (const name of ['b-one', 'b-two', 'b-three']) await createFeature(server, name);
  await createFeature(server, 'b-elsewhere', 'other');
});

const BULK = (suffix: string, environment = 'development', project = 'default') =>
  `/api/admin/projects/${project}/bulk_features/environments/${environment}/${suffix}`;
const states = async (...names: string[]) =>
  Promise.all(names.map(async (n) => (await featureEnvironment(server, n, 'development')).enabled));

describe('POST …/bulk_features/environments/:environment/on and /off', () => {
  it('turns the listed features on, each as the single switch does: a 100% rollout added, events', async () => {
    const res = await expectStatus(server, 200, 'POST', BULK('on'), {
      features: ['b-one', 'b-two', 'b-one'],
    });
    expect(res.text).toBe('');
    expect(await states('b-one', 'b-two', 'b-three')).toEqual([true, true, false]);
    for (const name of ['b-one', 'b-two']) {
      const env = await featureEnvironment(server, name, 'development');
      expect(env.strategies).toEqual([
        expect.objectContaining({
          name: 'flexibleRollout',
          parameters: { rollout: '100', stickiness: 'default', groupId: name },
        }),
      ]);
      expect(await eventsAbout(server, name, 'feature-strategy-add')).toHaveLength(1);
      expect(await eventsAbout(server, name, 'feature-environment-enabled')).toHaveLength(1);
    }
    await expectStatus(server, 200, 'POST', BULK('on'), { features: ['b-one'] });
    expect(await eventsAbout(server, 'b-one', 'feature-environment-enabled')).toHaveLength(1);
  });

  it('turns them off, with an event each for those that were on', async () => {
    await expectStatus(server, 200, 'POST', BULK('off'), { features: ['b-one', 'b-two', 'b-three'] });
    expect(await states('b-one', 'b-two', 'b-three')).toEqual([false, false, false]);
    expect(await eventsAbout(server, 'b-three', 'feature-environment-disabled')).toHaveLength(0);
    expect(await eventsAbout(server, 'b-one', 'feature-environment-disabled')).toHaveLength(1);
  });

  it('enables disabled strategies when asked (query or body); otherwise adds an active one', async () => {
    const strategies = `/api/admin/projects/default/features/b-three/environments/development/strategies`;
    const { body } = await expectStatus(server, 200, 'POST', strategies, { name: 'default', disabled: true });
    await expectStatus(server, 200, 'POST', `${BULK('on')}?shouldActivateDisabledStrategies=true`, {
      features: ['b-three'],
    });
    let env = await featureEnvironment(server, 'b-three', 'development');
    expect(env.strategies).toEqual([expect.objectContaining({ id: body.id, disabled: false })]);
    const [update] = await eventsAbout(server, 'b-three', 'feature-strategy-update');
    expect(update).toMatchObject({ data: { disabled: false }, preData: { disabled: true } });
    await expectStatus(server, 200, 'POST', BULK('off'), { features: ['b-three'] });
    await expectStatus(server, 200, 'PUT', `${strategies}/${body.id}`, { name: 'default', disabled: true });
    await expectStatus(server, 200, 'POST', BULK('on'), {
      features: ['b-three'],
      shouldActivateDisabledStrategies: true,
    });
    env = await featureEnvironment(server, 'b-three', 'development');
    expect(env.strategies.map((s: { disabled: boolean }) => s.disabled)).toEqual([false]);
    await expectStatus(server, 200, 'POST', BULK('off'), { features: ['b-three'] });
    await expectStatus(server, 200, 'PUT', `${strategies}/${body.id}`, { name: 'default', disabled: true });
    await expectStatus(server, 200, 'POST', BULK('on'), { features: ['b-three'] });
    env = await featureEnvironment(server, 'b-three', 'development');
    expect(env.enabled).toBe(true);
    expect(env.strategies.map((s: { name: string; disabled: boolean }) => [s.name, s.disabled])).toEqual([
      ['default', true],
      ['flexibleRollout', false],
    ]);
  });

  it('refuses the whole list when one feature cannot be switched: unknown, archived, other project (404)', async () => {
    await createFeature(server, 'b-archived');
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/b-archived');
    const read = () => states('b-one', 'b-two');
    for (const name of ['ghost', 'b-archived', 'b-elsewhere']) {
      await expectRefused(
        server,
        404,
        () => asAdmin(server, 'POST', BULK('on'), { features: ['b-one', name, 'b-two'] }),
        read,
      );
    }
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'POST', BULK('on', 'staging'), { features: ['b-one'] }),
      read,
    );
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'POST', BULK('on', 'development', 'ghost'), { features: [] }),
      read,
    );
    for (const body of [
      {},
      { features: 'b-one' },
      { features: [''] },
      { features: ['b-one'], shouldActivateDisabledStrategies: 'x' },
    ]) {
      await expectRefused(server, 400, () => asAdmin(server, 'POST', BULK('on'), body), read);
    }
    await expectRefused(
      server,
      400,
      () => asAdmin(server, 'POST', `${BULK('on')}?shouldActivateDisabledStrategies=yes`, { features: [] }),
      read,
    );
  });

  it('needs UPDATE_FEATURE_ENVIRONMENT there, and CREATE_FEATURE_STRATEGY to add a strategy', async () => {
    const read = () => states('b-one', 'b-two', 'b-three');
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url: BULK('on'), body: { features: ['b-two'] } },
      read,
    );
    const production = await projectMember(server, 'default', [
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
    ]);
    await expectRefused(
      server,
      403,
      () => server.request('POST', BULK('on'), { token: production.pat, body: { features: ['b-two'] } }),
      read,
    );
    await createFeature(server, 'b-bare');
    const switcher = await projectMember(server, 'default', ['UPDATE_FEATURE_ENVIRONMENT']);
    // b-two has a strategy already; b-bare would need one added, which this role may not do.
    await expectRefused(
      server,
      403,
      () =>
        server.request('POST', BULK('on'), { token: switcher.pat, body: { features: ['b-two', 'b-bare'] } }),
      read,
    );
    const ok = await server.request('POST', BULK('on'), {
      token: switcher.pat,
      body: { features: ['b-two'] },
    });
    expect(ok.status).toBe(200);
    expect(await states('b-two')).toEqual([true]);
  });
});
