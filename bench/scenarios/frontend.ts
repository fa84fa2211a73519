import type { BenchContext, Case, Scenario } from './types.js';

/**
 * `count` flags in a project of their own, as the state import takes them: a flexible rollout of
 * i % 101 % in its own group; every third only for the apps web and ios; every fourth with two
 * strategy variants (one with a payload). Enabled in development.
 */
function flagsDocument(project: string, count: number) {
  const features = [];
  const featureEnvironments = [];
  const featureStrategies = [];
  for (let i = 0; i < count; i++) {
    const name = `${project}-${String(i).padStart(5, '0')}`;
    features.push({ name, project, type: 'release' });
    featureEnvironments.push({ featureName: name, environment: 'development', enabled: true, variants: [] });
    featureStrategies.push({
      id: `${name}-s`,
      featureName: name,
      projectId: project,
      environment: 'development',
      name: 'flexibleRollout',
      parameters: { rollout: String(i % 101), stickiness: 'default', groupId: name },
      constraints: i % 3 === 0 ? [{ contextName: 'appName', operator: 'IN', values: ['web', 'ios'] }] : [],
      variants:
        i % 4 === 0
          ? [
              {
                name: 'blue',
                weight: 500,
                weightType: 'variable',
                stickiness: 'default',
                payload: { type: 'string', value: 'b' },
              },
              { name: 'red', weight: 500, weightType: 'variable', stickiness: 'default' },
            ]
          : [],
      sortOrder: 0,
    });
  }
  return {
    version: 4,
    projects: [{ id: project, name: project }],
    features,
    featureEnvironments,
    featureStrategies,
  };
}

async function flagsWithToken(ctx: BenchContext, project: string, count: number): Promise<string> {
  await ctx.call('POST', '/api/admin/state/import', flagsDocument(project, count));
  const token = await ctx.call('POST', '/api/admin/api-tokens', {
    tokenName: `bench-${project}`,
    type: 'frontend',
    environment: 'development',
    projects: [project],
  });
  return token.secret as string;
}

/** OpenFeature's remote evaluation of the same flags: every one of them, and one. */
function ofrepCases(project: string, token: string): Case[] {
  const headers = { authorization: token, 'content-type': 'application/json' };
  const body = JSON.stringify({ context: { targetingKey: 'u1', appName: 'web' } });
  return [
    {
      name: 'POST /ofrep/v1/evaluate/flags (1000 flags)',
      method: 'POST',
      path: '/ofrep/v1/evaluate/flags',
      headers,
      body,
    },
    {
      name: 'POST /ofrep/v1/evaluate/flags/{key} (one of 1000)',
      method: 'POST',
      path: `/ofrep/v1/evaluate/flags/${project}-00004`,
      headers,
      body,
    },
  ];
}

const CONTEXTS = 1000;
const PLAYGROUND_FLAGS = 15;

/**
 * What browsers and mobile apps ask: the frontend API over 1,000 and over 10,000 flags (each
 * answer evaluates every flag of the token's project for the context), OFREP over the 1,000
 * (the bulk evaluation and one flag); and, timed one at a time, the advanced playground
 * evaluating 15 flags for 1,000 users (15,000 evaluations, the most one request may ask).
 */
export const frontend: Scenario = async (ctx) => {
  const cases: Case[] = [];
  // A user each: the baseline serves each path once.
  for (const [project, count, user] of [
    ['fe1k', 1000, 'u1'],
    ['fe10k', 10_000, 'u2'],
  ] as const) {
    const token = await flagsWithToken(ctx, project, count);
    cases.push({
      name: `GET /api/frontend?userId=${user}&appName=web (${count} flags)`,
      method: 'GET',
      path: `/api/frontend?userId=${user}&appName=web`,
      headers: { authorization: token },
    });
    if (count === 1000) cases.push(...ofrepCases(project, token));
  }
  await flagsWithToken(ctx, 'fepg', PLAYGROUND_FLAGS);
  const users = Array.from({ length: CONTEXTS }, (_, i) => `u${i}`).join(',');
  const playground = {
    environments: ['development'],
    projects: ['fepg'],
    context: { appName: 'web', userId: users },
  };
  // Timed one at a time: ten at once, each hundreds of milliseconds, measure the queue.
  await ctx.call('POST', '/api/admin/playground/advanced', playground);
  for (let i = 1; i <= 3; i++) {
    await ctx.timed(`advanced playground, ${PLAYGROUND_FLAGS} flags × ${CONTEXTS} users (${i} of 3)`, () =>
      ctx.call('POST', '/api/admin/playground/advanced', playground),
    );
  }
  return cases;
};
