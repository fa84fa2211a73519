// The writes of features' tags an import makes. Every write of feature_tags is in ./store.ts.
export { deleteTagsOfFeatures, type FeatureTagRow, insertFeatureTagRows } from './store.js';
