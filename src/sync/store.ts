import type { Queryable } from '../db/database.js';

export const REVISION_CHANNEL = 'flagpole_revision';

/**
 * The last statement of a transaction that changed the configuration: the next revision, what
 * it changed, and a notification to the other processes (sent when the transaction commits).
 */
export async function bumpConfigRevision(
  tx: Queryable,
  scopes: string[],
  features: string[],
): Promise<number> {
  const { rows } = await tx.query<{ revision: number }>(
    `WITH r AS (UPDATE revisions SET value = value + 1 WHERE name = 'config' RETURNING value)
     INSERT INTO config_changes (revision, scopes, features)
     SELECT value, $1::text[], $2::text[] FROM r
     RETURNING revision, pg_notify('${REVISION_CHANNEL}', 'config:' || revision)`,
    [scopes, features],
  );
  return rows[0]!.revision;
}

/** After SDK usage counts were written: caches of them (E20) reload. */
export async function bumpMetricsRevision(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ value: number }>(
    `UPDATE revisions SET value = value + 1 WHERE name = 'metrics'
     RETURNING value, pg_notify('${REVISION_CHANNEL}', 'metrics:' || value)`,
  );
  return rows[0]!.value;
}

export interface Revisions {
  config: number;
  metrics: number;
}

export async function readRevisions(db: Queryable): Promise<Revisions> {
  const { rows } = await db.query<{ name: string; value: number }>('SELECT name, value FROM revisions');
  const of = (name: string) => rows.find((r) => r.name === name)?.value ?? 0;
  return { config: of('config'), metrics: of('metrics') };
}

export interface StoredChange {
  revision: number;
  scopes: string[];
  features: string[];
}

/** The current revisions and what changed after `since`, in one statement (one snapshot). */
export async function readChangesSince(
  db: Queryable,
  since: number,
): Promise<Revisions & { changes: StoredChange[] }> {
  const { rows } = await db.query<{ config: number; metrics: number; changes: StoredChange[] | null }>(
    `SELECT (SELECT value FROM revisions WHERE name = 'config') AS config,
            (SELECT value FROM revisions WHERE name = 'metrics') AS metrics,
            (SELECT json_agg(json_build_object('revision', revision, 'scopes', scopes, 'features', features)
                             ORDER BY revision)
               FROM config_changes WHERE revision > $1) AS changes`,
    [since],
  );
  const row = rows[0]!;
  return { config: Number(row.config), metrics: Number(row.metrics), changes: row.changes ?? [] };
}

/** Forgets what changed before `before`, keeping the newest ones whatever their age. */
export async function pruneConfigChanges(db: Queryable, before: Date, keep: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM config_changes
      WHERE created_at < $1 AND revision <= (SELECT value FROM revisions WHERE name = 'config') - $2`,
    [before, keep],
  );
  return rowCount;
}
