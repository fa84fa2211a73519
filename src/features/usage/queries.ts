// What other rooms ask of where things are used by features. The SQL is in ./store.ts.
export {
  featuresUsingContextField,
  featuresUsingStrategyType,
  type SegmentUse,
  segmentIdsOfFeature,
  strategiesUsingSegment,
} from './store.js';
