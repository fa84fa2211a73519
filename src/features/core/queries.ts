// What other rooms read of features' rows. The SQL is in ./store.ts.
export {
  type Feature,
  featureEnvironmentNames,
  findFeature,
  findFeatures,
  findFeaturesOfProject,
  listArchivedFeatures,
} from './store.js';
