import type { Queryable } from '../src/db/database.js';

/**
 * A fingerprint of everything the API can change: per table, its row count and the sum of its
 * rows' hashes (so no sorting), so two digests differ when some configuration changed in between.
 *
 * Left out is what changes on its own, while nobody asks for a change: when a credential or a
 * feature was last seen and failed sign-ins (written after the answer, or counted by design), SDK
 * instances and usage counts and the applications, events and lifecycle stages the metrics buffer
 * writes in the background, flags SDKs asked for that do not exist, integrations' deliveries (the
 * worker moves them on), impact metrics (written by their buffer), the recurring safeguard check's
 * job and the times a safeguard was armed and tripped, and `config_changes`, which retention prunes
 * (the revision it follows is kept).
 * Events are compared by count and newest id: they are only ever added.
 */
export type StateDigest = Map<string, string>;

const VOLATILE_COLUMNS = new Set([
  'seen_at',
  'last_seen',
  'last_seen_at',
  'login_attempts',
  'armed_at',
  'triggered_at',
]);
const BACKGROUND_TABLES = new Set([
  'client_instances',
  'client_metrics_hourly',
  'client_metrics_variants_hourly',
  'config_changes',
  'addon_deliveries',
  'unknown_flags',
  'impact_metrics',
  'impact_metric_series',
  'impact_metric_minutes',
  'impact_metric_hours',
]);
/**
 * The metrics buffer acts as `sdk`; the usage revision moves with every flush, which also moves
 * features into the lifecycle stages reaching SDKs means.
 */
const ROWS_KEPT: Record<string, string> = {
  feature_lifecycles: "stage NOT IN ('pre-live', 'live')",
  client_applications: "created_by IS DISTINCT FROM 'sdk'",
  events: "created_by IS DISTINCT FROM 'sdk'",
  revisions: "name <> 'metrics'",
  jobs: "kind <> 'safeguard-check'",
};

async function digestStatement(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const columns = new Map<string, string[]>();
  for (const r of rows) {
    if (BACKGROUND_TABLES.has(r.table_name) || VOLATILE_COLUMNS.has(r.column_name)) continue;
    columns.set(r.table_name, [...(columns.get(r.table_name) ?? []), `"${r.column_name}"`]);
  }
  const parts = [...columns].map(([table, cols]) => {
    const where = ROWS_KEPT[table] ? ` WHERE ${ROWS_KEPT[table]}` : '';
    if (table === 'events')
      return `SELECT 'events'::text, count(*) || ':' || coalesce(max(id), 0) FROM events${where}`;
    const hash = `coalesce(sum(hashtext(ROW(${cols.join(', ')})::text)), 0)`;
    return `SELECT '${table}'::text, count(*) || ':' || ${hash} FROM "${table}"${where}`;
  });
  return parts.join('\nUNION ALL\n');
}

/**
 * Made once per database, as a function: its plan is kept, which makes a digest several times
 * faster than the same statement sent each time (the embedded database plans slowly).
 */
const prepared = new WeakMap<Queryable, Promise<void>>();

async function createDigestFunction(db: Queryable): Promise<void> {
  const statement = await digestStatement(db);
  await db.query(
    `CREATE OR REPLACE FUNCTION test_state_digest() RETURNS TABLE (digest_table text, digest_value text)
     LANGUAGE plpgsql AS $body$ BEGIN RETURN QUERY ${statement}; END $body$`,
  );
}

/** The digest of the database's current state (the first call creates `test_state_digest()`). */
export async function readStateDigest(db: Queryable): Promise<StateDigest> {
  let ready = prepared.get(db);
  if (!ready) {
    ready = createDigestFunction(db);
    prepared.set(db, ready);
  }
  await ready;
  const { rows } = await db.query<{ digest_table: string; digest_value: string }>(
    'SELECT * FROM test_state_digest()',
  );
  return new Map(rows.map((r) => [r.digest_table, r.digest_value]));
}

/** The tables whose digests differ. */
export function changedTables(before: StateDigest, after: StateDigest): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}
