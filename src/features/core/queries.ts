// What other rooms read of features' rows. The SQL is in ./store.ts.
export {
  type Feature,
  type FeatureRecord,
  findFeatures,
  listArchivedFeatures,
} from './store.js';
