// What other rooms read of roles/: the functions and types they use. The SQL is in its store.
export { adminRoleIds, findRole, findRoles, listRootRoles, type RoleRow } from './store.js';
