// What other rooms read of segments/: the functions and types they use. The SQL is in its store.
export { segmentNamesOutsideProject } from './store.js';
