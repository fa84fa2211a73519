// What the retention sweep (src/retention.ts) deletes of applications/. The SQL is in its stores.
export { deleteInstancesNotSeenSince } from './instance-store.js';
export { deleteApplicationsNotSeenSince } from './store.js';
