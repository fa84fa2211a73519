// The writes of features' strategies that other rooms' changes make (cloning, switching on with a
// default strategy, unlinking an environment, importing). Every write of feature_strategies is in
// ./store.ts, of feature_strategy_segments in ./segment-store.ts.
export { replaceStrategySegmentRows, setStrategySegments } from './segment-store.js';
export {
  deleteProjectStrategiesIn,
  deleteStrategiesIn,
  insertStrategy,
  type StrategyRow,
  updateStrategy,
  upsertStrategyRows,
} from './store.js';
