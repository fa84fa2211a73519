import type { Case, Scenario } from './types.js';

/** E17 (a group with 50 members) and E4 (a custom project role rewritten with its permissions). */
export const access: Scenario = async (ctx) => {
  const users: { user: { id: number } }[] = [];
  for (let i = 0; i < 50; i++) {
    const created = await ctx.call('POST', '/api/admin/user-admin', {
      username: `member${i}`,
      email: `member${i}@example.com`,
      rootRole: 3,
    });
    users.push({ user: { id: created.id } });
  }
  const group = await ctx.call('POST', '/api/admin/groups', { name: 'Bench group', rootRole: 2, users });
  const role = await ctx.call('POST', '/api/admin/roles', { name: 'Bench role', type: 'custom' });
  await ctx.call('POST', '/api/admin/projects/default/access', {
    roles: [role.roles.id],
    users: [],
    groups: [group.id],
  });
  const roleBody = {
    name: 'Bench role',
    description: 'Changes features in development',
    type: 'custom',
    permissions: [
      { name: 'CREATE_FEATURE' },
      { name: 'UPDATE_FEATURE' },
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
      { name: 'CREATE_FEATURE_STRATEGY', environment: 'development' },
      { name: 'UPDATE_FEATURE_STRATEGY', environment: 'development' },
    ],
  };
  const cases: Case[] = [
    {
      name: 'E17 GET /api/admin/groups/:id (50 members)',
      method: 'GET',
      path: `/api/admin/groups/${group.id}`,
      headers: { authorization: ctx.adminToken },
    },
    {
      name: 'E4 PUT /api/admin/roles/:id (5 permissions)',
      method: 'PUT',
      path: `/api/admin/roles/${role.roles.id}`,
      headers: { authorization: ctx.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify(roleBody),
    },
  ];
  return cases;
};
