// What other rooms read of events/: the functions and types they use. The SQL is in its store.
export type { EventSearch } from './store.js';
