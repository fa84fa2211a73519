// What the read model reads of the lifecycle tables. The SQL is in ./store.ts.
export { stagesEnteredSince } from './store.js';
