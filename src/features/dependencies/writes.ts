// The writes of features' dependencies an import makes. Every write of feature_dependencies is in
// ./store.ts.
export { deleteDependenciesOf, setDependencies } from './store.js';
