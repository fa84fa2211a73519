import type { Case, Scenario } from './types.js';

/**
 * E1: a banner replaced with all its fields — the same ones each time (answered without a write,
 * as a script making sure of its banner would send it), and two sets in turn (a write each time).
 */
export const banners: Scenario = async (ctx) => {
  // Two banners: each case has a path of its own (the baseline serves one answer per path).
  const unchanged = await ctx.call('POST', '/api/admin/banners', { message: 'Bench banner' });
  const changed = await ctx.call('POST', '/api/admin/banners', { message: 'Bench banner' });
  const body = {
    message: 'Maintenance on **Sunday** from 02:00 to 04:00 UTC',
    enabled: true,
    variant: 'warning',
    sticky: true,
    icon: 'build',
    link: 'dialog',
    linkText: 'What changes',
    dialogTitle: 'Maintenance',
    dialog: 'The admin UI is read-only meanwhile; SDKs keep their flags.',
  };
  const request = {
    method: 'PUT' as const,
    headers: { authorization: ctx.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  const cases: Case[] = [
    {
      name: 'E1 PUT /api/admin/banners/:id (unchanged)',
      ...request,
      path: `/api/admin/banners/${unchanged.id}`,
    },
    {
      name: 'E1 PUT /api/admin/banners/:id (changed)',
      ...request,
      path: `/api/admin/banners/${changed.id}`,
      alternate: JSON.stringify({ ...body, variant: 'info', sticky: false }),
    },
  ];
  return cases;
};
