// What other rooms read of tag-types/: the functions and types they use. The SQL is in its store.
export type { TagType } from './store.js';
