// The writes of projects/ that other rooms' changes make. The SQL is in its store.
export { deleteProject } from './store.js';
