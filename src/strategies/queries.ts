// What other rooms read of strategies/: the functions and types they use. The SQL is in its store.
export { listStrategyDefinitions } from './store.js';
