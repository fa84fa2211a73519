// What the retention sweep (src/retention.ts) deletes of metrics/. The SQL is in its store.
export { deleteHourlyCountsBefore } from './store.js';
export { deleteUnknownFlagsSeenBefore } from './usage-store.js';
