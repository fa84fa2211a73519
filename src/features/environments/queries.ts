// What other rooms read of features' environments. The SQL is in ./store.ts.
export { findEnvironmentVariants } from './store.js';
