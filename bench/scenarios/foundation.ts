import type { Case, Scenario } from './types.js';

/** Health, the caller, the audit log and sign-in. */
export const foundation: Scenario = async (ctx) => {
  // enough history for a full page of events
  for (let i = 0; i < 120; i++) {
    await ctx.call('POST', '/api/admin/api-tokens', {
      tokenName: `t${i}`,
      type: 'client',
      environment: 'development',
    });
  }
  const cases: Case[] = [
    { name: 'GET /health', method: 'GET', path: '/health' },
    {
      name: 'GET /api/admin/user (PAT)',
      method: 'GET',
      path: '/api/admin/user',
      headers: { authorization: ctx.pat },
    },
    {
      name: 'GET /api/admin/events (100)',
      method: 'GET',
      path: '/api/admin/events',
      headers: { authorization: ctx.adminToken },
    },
    {
      name: 'POST /auth/simple/login',
      method: 'POST',
      path: '/auth/simple/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ctx.user),
    },
  ];
  return cases;
};
