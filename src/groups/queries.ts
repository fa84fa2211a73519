// What other rooms read of groups/: the functions and types they use. The SQL is in its store.
export { findGroups, groupsOfUser } from './store.js';
