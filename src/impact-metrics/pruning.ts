// What retention forgets of impact metrics.
export { deleteOldImpactMetrics } from './store.js';
