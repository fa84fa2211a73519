import type { Queryable } from './database.js';

/**
 * Every advisory lock the server takes, in one list: PostgreSQL has one space of lock ids for the
 * whole database, so two uses that picked the same number by chance would wait for each other.
 * Any numbers work; they only have to be the same in every replica.
 */
export const ADVISORY_LOCKS = {
  /** Migrations run in one process at a time. */
  migrations: 4_242_001,
  /** Replicas starting together: only the first one creates the default admin. */
  defaultAdmin: 4_242_002,
  /** Replicas starting together with the same start-up tokens: one makes each. */
  startupTokens: 4_242_003,
  /** Changes that may take Admin away from a user run one after another. */
  admins: 4_242_004,
  /** Imports of the state document run one at a time. */
  imports: 4_242_005,
} as const;

/** Takes the lock until the transaction ends. */
export async function takeAdvisoryLock(tx: Queryable, lock: keyof typeof ADVISORY_LOCKS): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS[lock]]);
}
