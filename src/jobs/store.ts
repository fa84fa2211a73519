import type { Queryable } from '../db/database.js';

export type JobState = 'pending' | 'done' | 'failed' | 'cancelled';

export interface Job {
  id: number;
  kind: string;
  key: string;
  runAt: Date;
  state: JobState;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = `id::int AS id, kind, key, run_at AS "runAt", state, attempts, last_error AS "lastError",
  created_at AS "createdAt", finished_at AS "finishedAt"`;

/** Makes the job of the kind and key wait for `runAt`; a job of them still waiting moves to that time. */
export async function upsertJob(db: Queryable, kind: string, key: string, runAt: Date): Promise<void> {
  await db.query(
    `INSERT INTO jobs (kind, key, run_at) VALUES ($1, $2, $3)
     ON CONFLICT (kind, key) WHERE state = 'pending' DO UPDATE SET run_at = EXCLUDED.run_at, attempts = 0, last_error = NULL`,
    [kind, key, runAt],
  );
}

/** Makes the job of the kind and key wait for `runAt` unless one of them waits already. */
export async function insertJobUnlessWaiting(
  db: Queryable,
  kind: string,
  key: string,
  runAt: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO jobs (kind, key, run_at) VALUES ($1, $2, $3) ON CONFLICT (kind, key) WHERE state = 'pending' DO NOTHING`,
    [kind, key, runAt],
  );
}

/** A recurring job's run is done: it waits for its next time, its failures forgotten. */
export async function postponeJob(db: Queryable, id: number, runAt: Date): Promise<void> {
  await db.query(
    `UPDATE jobs SET run_at = $2, attempts = attempts + 1, last_error = NULL, finished_at = now() WHERE id = $1`,
    [id, runAt],
  );
}

/** Drops the waiting job of the kind and key, if there is one. */
export async function cancelJob(db: Queryable, kind: string, key: string): Promise<void> {
  await db.query(
    `UPDATE jobs SET state = 'cancelled', finished_at = now() WHERE kind = $1 AND key = $2 AND state = 'pending'`,
    [kind, key],
  );
}

/**
 * The first job due, locked for the transaction: another process skips it while this one runs it,
 * and takes it when this one's transaction ends without having finished it.
 */
export async function claimDueJob(db: Queryable, kinds: readonly string[]): Promise<Job | undefined> {
  const { rows } = await db.query<Job>(
    `SELECT ${COLUMNS} FROM jobs WHERE state = 'pending' AND run_at <= now() AND kind = ANY($1::text[])
      ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [kinds],
  );
  return rows[0];
}

export async function finishJob(db: Queryable, id: number): Promise<void> {
  await db.query(
    `UPDATE jobs SET state = 'done', attempts = attempts + 1, finished_at = now() WHERE id = $1`,
    [id],
  );
}

/**
 * Records a failed run of the job as it was claimed (`attempts` then): it runs again at `retryAt`,
 * or, without one, has failed for good. False when it had moved on meanwhile (another process ran it).
 */
export async function recordJobFailure(
  db: Queryable,
  job: Pick<Job, 'id' | 'attempts'>,
  reason: string,
  retryAt: Date | null,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE jobs SET attempts = attempts + 1, last_error = $3,
            state = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
            run_at = coalesce($4::timestamptz, run_at),
            finished_at = CASE WHEN $4::timestamptz IS NULL THEN now() END
      WHERE id = $1 AND attempts = $2 AND state = 'pending'`,
    [job.id, job.attempts, reason, retryAt],
  );
  return rowCount > 0;
}

/** When the next waiting job of these kinds is due; undefined when none waits. */
export async function nextDue(db: Queryable, kinds: readonly string[]): Promise<Date | undefined> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT min(run_at) AS at FROM jobs WHERE state = 'pending' AND kind = ANY($1::text[])`,
    [kinds],
  );
  return rows[0]?.at ?? undefined;
}

/** The newest jobs, for Admins. */
export async function listJobs(db: Queryable, limit: number): Promise<Job[]> {
  const { rows } = await db.query<Job>(`SELECT ${COLUMNS} FROM jobs ORDER BY id DESC LIMIT $1`, [limit]);
  return rows;
}

/** Removes the jobs that ended (done, failed or cancelled) before `before`; how many. */
export async function deleteEndedJobsBefore(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM jobs WHERE state <> 'pending' AND finished_at < $1`, [
    before,
  ]);
  return rowCount;
}
