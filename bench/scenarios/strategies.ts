import type { Case, Scenario } from './types.js';

const FEATURE = '/api/admin/projects/default/features/bench-strategies';
const DEVELOPMENT = `${FEATURE}/environments/development`;

/** E18 (a feature's variants in one environment) and E11 (replace a strategy) on a realistic flag. */
export const strategies: Scenario = async (ctx) => {
  await ctx.call('POST', '/api/admin/projects/default/features', { name: 'bench-strategies' });
  await ctx.call(
    'PUT',
    `${DEVELOPMENT}/variants`,
    ['red', 'green', 'blue', 'yellow'].map((name) => ({
      name,
      weight: 0,
      weightType: 'variable',
      stickiness: 'default',
      payload: { type: 'json', value: JSON.stringify({ color: name }) },
    })),
  );
  const segment = await ctx.call('POST', '/api/admin/segments', {
    name: 'bench-segment',
    constraints: [{ contextName: 'appName', operator: 'IN', values: ['web', 'ios'] }],
  });
  const config = {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'userId', groupId: 'bench' },
    constraints: [
      { contextName: 'userId', operator: 'IN', values: Array.from({ length: 20 }, (_, i) => `user-${i}`) },
      { contextName: 'appName', operator: 'SEMVER_GTE', value: '2.1.0' },
      { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00Z' },
    ],
    variants: [
      { name: 'a', weight: 0, weightType: 'variable', stickiness: 'default' },
      { name: 'b', weight: 200, weightType: 'fix', stickiness: 'default' },
    ],
    segments: [segment.id],
  };
  const strategy = await ctx.call('POST', `${DEVELOPMENT}/strategies`, config);
  await ctx.call('POST', `${DEVELOPMENT}/strategies`, { name: 'default' });

  const admin = { authorization: ctx.adminToken };
  const cases: Case[] = [
    {
      name: 'GET …/environments/:env/variants (E18)',
      method: 'GET',
      path: `${DEVELOPMENT}/variants`,
      headers: admin,
    },
    {
      name: 'PUT …/strategies/:id (E11)',
      method: 'PUT',
      path: `${DEVELOPMENT}/strategies/${strategy.id}`,
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ ...config, title: 'Half of the listed users' }),
    },
  ];
  return cases;
};
