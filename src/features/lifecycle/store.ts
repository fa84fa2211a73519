import type { Queryable } from '../../db/database.js';
import { type ReadOptions, withRowLock } from '../../db/lock.js';
import type { CompletedStatus, StageName } from './stages.js';

/**
 * The features of those names enter the stage now, unless they have entered it before: a stage is
 * entered once, and what is entered first stays (a feature seen again keeps its first sighting).
 */
export async function enterStage(db: Queryable, names: readonly string[], stage: StageName): Promise<void> {
  if (names.length === 0) return;
  await db.query(
    `INSERT INTO feature_lifecycles (feature_name, stage)
     SELECT name, $2 FROM features WHERE name = ANY($1::text[])
     ON CONFLICT DO NOTHING`,
    [names, stage],
  );
}

/** A revived feature starts over: its stages go, and it is initial from now. */
export async function restartLifecycles(db: Queryable, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await db.query('DELETE FROM feature_lifecycles WHERE feature_name = ANY($1::text[])', [names]);
  await enterStage(db, names, 'initial');
}

/**
 * Features an import wrote: each is initial from its creation time, archived ones archived from
 * when they were archived, and one the import brought back from the archive is archived no more.
 * Only features the import overwrote, rather than created, can have been brought back.
 */
export async function settleImportedLifecycles(
  db: Queryable,
  names: readonly string[],
  overwritten: readonly string[],
): Promise<void> {
  if (names.length === 0) return;
  if (overwritten.length > 0) {
    await db.query(
      `DELETE FROM feature_lifecycles l USING features f
        WHERE l.feature_name = f.name AND f.name = ANY($1::text[]) AND l.stage = 'archived' AND f.archived_at IS NULL`,
      [overwritten],
    );
  }
  await db.query(
    `INSERT INTO feature_lifecycles (feature_name, stage, created_at)
     SELECT name, 'initial', created_at FROM features WHERE name = ANY($1::text[])
     UNION ALL
     SELECT name, 'archived', archived_at FROM features WHERE name = ANY($1::text[]) AND archived_at IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [names],
  );
}

/**
 * SDKs reported these features in these environments: each live feature that has the environment
 * is pre-live from now, and live too where the environment is of the production type and the
 * feature is on there (Unleash's rule). One statement, whatever the number of features.
 */
export async function enterStagesSeen(
  db: Queryable,
  seen: readonly { featureName: string; environment: string }[],
): Promise<void> {
  if (seen.length === 0) return;
  await db.query(
    `INSERT INTO feature_lifecycles (feature_name, stage)
     SELECT DISTINCT fe.feature_name, s.stage
       FROM feature_environments fe
       JOIN features f ON f.name = fe.feature_name AND f.archived_at IS NULL
       JOIN environments e ON e.name = fe.environment
       CROSS JOIN LATERAL (VALUES ('pre-live'),
                                  (CASE WHEN e.type = 'production' AND fe.enabled THEN 'live' END)) AS s(stage)
      WHERE (fe.feature_name, fe.environment) IN (SELECT * FROM unnest($1::text[], $2::text[]))
        AND s.stage IS NOT NULL
      ORDER BY 1, 2
     ON CONFLICT DO NOTHING`,
    [seen.map((s) => s.featureName), seen.map((s) => s.environment)],
  );
}

export interface CompletedRow {
  status: CompletedStatus | null;
  statusValue: string | null;
}

/** The feature's completed stage, or null when it has not been completed. */
export async function findCompleted(
  db: Queryable,
  name: string,
  { lock }: ReadOptions = {},
): Promise<CompletedRow | null> {
  const { rows } = await db.query<{ status: CompletedStatus | null; status_value: string | null }>(
    withRowLock(
      `SELECT status, status_value FROM feature_lifecycles WHERE feature_name = $1 AND stage = 'completed'`,
      lock,
    ),
    [name],
  );
  return rows[0] ? { status: rows[0].status, statusValue: rows[0].status_value } : null;
}

/** Completes the feature now, or changes the status of its completion (its time stays). */
export async function setCompleted(
  db: Queryable,
  name: string,
  status: CompletedStatus,
  statusValue: string | null,
): Promise<void> {
  await db.query(
    `INSERT INTO feature_lifecycles (feature_name, stage, status, status_value) VALUES ($1, 'completed', $2, $3)
     ON CONFLICT (feature_name, stage) DO UPDATE SET status = EXCLUDED.status, status_value = EXCLUDED.status_value`,
    [name, status, statusValue],
  );
}

export async function deleteCompleted(db: Queryable, name: string): Promise<void> {
  await db.query(`DELETE FROM feature_lifecycles WHERE feature_name = $1 AND stage = 'completed'`, [name]);
}

export interface EnteredStage {
  featureName: string;
  stage: StageName;
  enteredStageAt: Date;
}

/** Stages entered since `since` (for the read model, after SDK metrics were written). */
export async function stagesEnteredSince(db: Queryable, since: Date): Promise<EnteredStage[]> {
  const { rows } = await db.query<{ feature_name: string; stage: StageName; created_at: Date }>(
    `SELECT feature_name, stage, created_at FROM feature_lifecycles
      WHERE created_at >= $1 AND stage IN ('pre-live', 'live')`,
    [since],
  );
  return rows.map((r) => ({ featureName: r.feature_name, stage: r.stage, enteredStageAt: r.created_at }));
}
