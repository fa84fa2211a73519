// What the retention sweep (src/retention.ts) deletes of addons/. The SQL is in its store.
export { deleteFinishedDeliveriesBefore } from './store.js';
