// What other rooms read of features' strategies. The SQL is in ./store.ts.
export {
  type FeatureStrategy,
  findStrategyPlaces,
  type StrategyConfig,
  type StrategyPlace,
  storedConfig,
  strategiesOf,
} from './store.js';
