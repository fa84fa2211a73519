import { expect } from 'vitest';
import type { TestServer } from './server.js';

/** Requests with the admin token that must succeed; the answer's body. */
export function adminCalls(server: TestServer) {
  return async (method: string, url: string, body?: unknown) => {
    const res = await server.request(method, url, { token: server.adminToken, body });
    expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
}

/**
 * The configuration the features-batch tests export: two live features of `default` with a
 * strategy each in development (constraints, a segment, strategy and environment variants, tags),
 * an archived one, and a feature of another project sharing a tag.
 */
export async function exportFixture(server: TestServer) {
  const call = adminCalls(server);
  await call('POST', '/api/admin/context', {
    name: 'region',
    legalValues: [{ value: 'eu' }, { value: 'us' }],
    stickiness: true,
  });
  await call('POST', '/api/admin/context', { name: 'plan', legalValues: [{ value: 'free' }] });
  const segment = await call('POST', '/api/admin/segments', {
    name: 'beta-users',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'] }],
  });
  await call('POST', '/api/admin/segments', { name: 'unused', constraints: [] });
  await call('POST', '/api/admin/tag-types', { name: 'team', description: 'owning team' });
  await call('POST', '/api/admin/projects/default/features', {
    name: 'exp-a',
    description: 'A flag',
    type: 'experiment',
    impressionData: true,
  });
  const strategyA = await call(
    'POST',
    '/api/admin/projects/default/features/exp-a/environments/development/strategies',
    {
      name: 'flexibleRollout',
      title: 'half',
      parameters: { rollout: '50', stickiness: 'default', groupId: 'exp-a' },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
      segments: [segment.id],
      variants: [
        {
          name: 'blue',
          weight: 1000,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'string', value: 'b' },
        },
      ],
    },
  );
  await call('PUT', '/api/admin/projects/default/features/exp-a/environments/development/variants', [
    {
      name: 'v1',
      weight: 1000,
      weightType: 'variable',
      stickiness: 'default',
      overrides: [{ contextName: 'userId', values: ['7'] }],
    },
  ]);
  await call('POST', '/api/admin/projects/default/features/exp-a/environments/development/on');
  await call('POST', '/api/admin/features/exp-a/tags', { type: 'team', value: 'core' });
  await call('POST', '/api/admin/features/exp-a/tags', { type: 'simple', value: 'checkout' });
  await call('POST', '/api/admin/projects/default/features', { name: 'exp-b' });
  const strategyB = await call(
    'POST',
    '/api/admin/projects/default/features/exp-b/environments/development/strategies',
    { name: 'default' },
  );
  await call('POST', '/api/admin/projects/default/features', { name: 'arch-x' });
  await call('DELETE', '/api/admin/projects/default/features/arch-x');
  await call('POST', '/api/admin/projects', { id: 'other', name: 'Other' });
  await call('POST', '/api/admin/projects/other/features', { name: 'elsewhere' });
  await call('POST', '/api/admin/features/elsewhere/tags', { type: 'simple', value: 'checkout' });
  return { segment, strategyA, strategyB };
}
