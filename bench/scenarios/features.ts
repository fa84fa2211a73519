import type { BenchContext, Case, Scenario } from './types.js';

const SIZES = [100, 1_000, 10_000];
const PARALLEL = 16;

/** Creates `count` features in the project through the API, a few requests at a time. */
async function fill(ctx: BenchContext, project: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await ctx.call('POST', `/api/admin/projects/${project}/features`, {
        name: `${project}-${String(i).padStart(5, '0')}`,
        description: `Feature ${i} of ${project}`,
      });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/**
 * The project feature list at three sizes (its cost per feature must not grow with the project)
 * and E16 PATCH. The patch swaps description and type, so every request really changes the feature.
 */
export const features: Scenario = async (ctx) => {
  const cases: Case[] = [];
  for (const size of SIZES) {
    const project = `bench-${size}`;
    await ctx.call('POST', '/api/admin/projects', { id: project, name: project });
    const started = Date.now();
    await fill(ctx, project, size);
    console.log(`features: ${size} features created in ${Date.now() - started} ms`);
    cases.push({
      name: `GET project features (${size.toLocaleString('en')})`,
      method: 'GET',
      path: `/api/admin/projects/${project}/features`,
      headers: { authorization: ctx.adminToken },
    });
  }
  await ctx.call('POST', '/api/admin/projects/default/features', {
    name: 'bench-patch',
    description: 'alpha',
    type: 'experiment',
  });
  cases.push({
    name: 'E16 PATCH feature (a change each time)',
    method: 'PATCH',
    path: '/api/admin/projects/default/features/bench-patch',
    headers: { authorization: ctx.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify([
      { op: 'copy', from: '/description', path: '/swap' },
      { op: 'copy', from: '/type', path: '/description' },
      { op: 'move', from: '/swap', path: '/type' },
    ]),
  });
  return cases;
};
