// What the retention sweep (src/retention.ts) deletes of oidc/. The SQL is in its store.
export { deleteSpentLogins } from './store.js';
