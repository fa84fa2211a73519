// What the retention sweep (src/retention.ts) deletes of applications/. The SQL is in its store.
export { deleteApplicationsNotSeenSince, deleteInstancesNotSeenSince } from './store.js';
