// The read model's records, as other rooms read them: the types, and the load of some features'
// records straight from the database (for imports and exports). The SQL is in ./store.ts.
export {
  type Dependency,
  type EnvironmentState,
  type FeatureRecord,
  loadFeatureRecords,
} from './store.js';
