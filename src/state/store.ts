import { takeAdvisoryLock } from '../db/advisory-locks.js';
import type { Transaction } from '../db/database.js';

/**
 * Imports run one at a time (until the transaction ends): two replicas importing the same file at
 * start-up do the work once, the second finding everything in place.
 */
export async function lockImports(tx: Transaction): Promise<void> {
  await takeAdvisoryLock(tx, 'imports');
}
