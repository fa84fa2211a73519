// What other rooms ask of where things are used by features. The SQL is in ./store.ts.
export { segmentIdsOfFeature } from './store.js';
