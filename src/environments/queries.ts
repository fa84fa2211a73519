// What other rooms read of environments/: the functions and types they use. The SQL is in its store.
export {
  enabledEnvironments,
  existingEnvironments,
  listEnvironmentsOfProject,
} from './store.js';
