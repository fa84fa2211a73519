// The writes of features' environments that other rooms' changes make (creating, reviving,
// cloning and importing features, linking environments to projects, setting variants). Every
// write of feature_environments is in ./store.ts.
export {
  attachFeatureEnvironments,
  attachProjectFeatures,
  detachProjectFeatures,
  disableFeaturesEverywhere,
  type FeatureEnvironmentRow,
  setEnvironmentVariants,
  upsertFeatureEnvironmentRows,
} from './store.js';
