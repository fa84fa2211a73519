// What other rooms read of segments/: the functions and types they use. The SQL is in its store.
export { type Segment, segmentNamesOutsideProject } from './store.js';
