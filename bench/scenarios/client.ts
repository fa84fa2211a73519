import type { Case, Scenario } from './types.js';

const FLAGS = 1000;

/** The SDK path: 1,000 flags served from memory, and metrics posts. */
export const client: Scenario = async (ctx) => {
  const token = (
    await ctx.call('POST', '/api/admin/api-tokens', {
      tokenName: 'bench-sdk',
      type: 'client',
      environment: 'development',
      projects: ['default'],
    })
  ).secret as string;
  for (let i = 0; i < FLAGS; i++) {
    const name = `sdk-flag-${String(i).padStart(4, '0')}`;
    await ctx.call('POST', '/api/admin/projects/default/features', { name });
    await ctx.call(
      'POST',
      `/api/admin/projects/default/features/${name}/environments/development/strategies`,
      {
        name: 'flexibleRollout',
        parameters: { rollout: String(i % 101), stickiness: 'userId' },
        constraints: i % 3 === 0 ? [{ contextName: 'appName', operator: 'IN', values: ['web', 'ios'] }] : [],
      },
    );
    await ctx.call('POST', `/api/admin/projects/default/features/${name}/environments/development/on`);
  }
  const toggles = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [
      `sdk-flag-${String(i).padStart(4, '0')}`,
      { yes: 10, no: 5, variants: {} },
    ]),
  );
  const now = new Date().toISOString();
  const cases: Case[] = [
    {
      name: `GET /api/client/features (${FLAGS})`,
      method: 'GET',
      path: '/api/client/features',
      headers: { authorization: token, 'unleash-client-spec': '5.2.0' },
    },
    {
      name: 'POST /api/client/metrics (20 flags)',
      method: 'POST',
      path: '/api/client/metrics',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: 'bench',
        instanceId: 'i1',
        bucket: { start: now, stop: now, toggles },
      }),
    },
  ];
  return cases;
};
