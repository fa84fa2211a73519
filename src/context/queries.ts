// What other rooms read of context/: the functions and types they use. The SQL is in its store.
export type { ContextField } from './store.js';
