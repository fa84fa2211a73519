// What other areas read of projects, kept in the store: they do not reach into it.
export { existingProjectIds } from './store.js';
