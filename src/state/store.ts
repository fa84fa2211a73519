import type { Transaction } from '../db/database.js';

// Any constant works; it only has to be the same in every replica.
const IMPORT_LOCK = 4_242_005;

/**
 * Imports run one at a time (until the transaction ends): two replicas importing the same file at
 * start-up do the work once, the second finding everything in place.
 */
export async function lockImports(tx: Transaction): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
}
