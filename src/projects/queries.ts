// What other rooms read of projects/: the functions and types they use. The SQL is in its store.
export type { Project } from './store.js';
