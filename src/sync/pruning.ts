// What the retention sweep (src/retention.ts) deletes of sync/. The SQL is in its store.
export { pruneConfigChanges } from './store.js';
