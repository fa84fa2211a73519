// The writes of users/ that other rooms' changes make. The SQL is in its store.
export { recordLoginFailure, recordLoginSuccess } from './store.js';
