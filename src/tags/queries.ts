// What other rooms read of tags/: the functions and types they use. The SQL is in its store.
export type { Tag } from './store.js';
