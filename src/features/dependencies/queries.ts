// What other rooms read of features' dependencies. The SQL is in ./store.ts.
export { type DependencyRow, dependenciesOf, dependenciesOn } from './store.js';
