import type { Queryable } from '../db/database.js';
import { jsonChunks } from '../db/json-chunks.js';
import type { EventSearch } from './search.js';

export interface NewEvent {
  type: string;
  createdBy: string;
  createdByUserId: number | null;
  project?: string | null;
  featureName?: string | null;
  environment?: string | null;
  data?: unknown;
  preData?: unknown;
}

export interface StoredEvent {
  id: number;
  type: string;
  createdBy: string;
  createdByUserId: number | null;
  createdAt: Date;
  project: string | null;
  featureName: string | null;
  environment: string | null;
  data: unknown;
  preData: unknown;
}

export interface EventFilter {
  type?: string;
  project?: string;
  feature?: string;
  /** Events of these projects are left out (the caller may not see them). */
  hiddenProjects?: readonly string[];
  limit: number;
  offset: number;
}

/** What an event written is matched on (integrations listen to events by these). */
export interface InsertedEvent {
  id: number;
  type: string;
  project: string | null;
  environment: string | null;
}

/**
 * Writes the events in the order given, in statements of a bounded size (db/json-chunks.ts). Only
 * the ids come back: a statement's rows take ids from the sequence in the order they are written,
 * so its ids in ascending order are its events' in order.
 */
export async function insertEvents(db: Queryable, events: NewEvent[]): Promise<InsertedEvent[]> {
  const rows = events.map((e) => ({
    type: e.type,
    created_by: e.createdBy,
    created_by_user_id: e.createdByUserId,
    project: e.project ?? null,
    feature_name: e.featureName ?? null,
    environment: e.environment ?? null,
    data: e.data ?? null,
    pre_data: e.preData ?? null,
  }));
  const inserted: InsertedEvent[] = [];
  for (const chunk of jsonChunks(rows)) {
    const { rows: written } = await db.query<{ id: string | number }>(
      `INSERT INTO events (type, created_by, created_by_user_id, project, feature_name, environment, data, pre_data)
       SELECT e.type, e.created_by, e.created_by_user_id, e.project, e.feature_name, e.environment, e.data, e.pre_data
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
                type text, created_by text, created_by_user_id integer, project text, feature_name text,
                environment text, data jsonb, pre_data jsonb))
              WITH ORDINALITY AS e(type, created_by, created_by_user_id, project, feature_name, environment,
                                   data, pre_data, n)
        ORDER BY e.n
       RETURNING id`,
      [chunk],
    );
    const ids = written.map((r) => Number(r.id)).sort((a, b) => a - b);
    for (const id of ids) {
      const row = rows[inserted.length]!;
      inserted.push({ id, type: row.type, project: row.project, environment: row.environment });
    }
  }
  return inserted;
}

function where(f: EventFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (f.type !== undefined) {
    params.push(f.type);
    clauses.push(`type = $${params.length}`);
  }
  if (f.project !== undefined) {
    params.push(f.project);
    clauses.push(`project = $${params.length}`);
  }
  if (f.feature !== undefined) {
    params.push(f.feature);
    clauses.push(`feature_name = $${params.length}`);
  }
  leaveOutProjects(f.hiddenProjects, clauses, params);
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** A clause that leaves out the events of those projects; events of no project stay. */
function leaveOutProjects(hidden: readonly string[] | undefined, clauses: string[], params: unknown[]) {
  if (!hidden || hidden.length === 0) return;
  params.push(hidden);
  clauses.push(`(project IS NULL OR project <> ALL($${params.length}::text[]))`);
}

type EventRecord = {
  id: number;
  type: string;
  created_by: string;
  created_by_user_id: number | null;
  created_at: Date;
  project: string | null;
  feature_name: string | null;
  environment: string | null;
  data: unknown;
  pre_data: unknown;
};

function toStoredEvent(r: EventRecord): StoredEvent {
  return {
    id: Number(r.id),
    type: r.type,
    createdBy: r.created_by,
    createdByUserId: r.created_by_user_id,
    createdAt: r.created_at,
    project: r.project,
    featureName: r.feature_name,
    environment: r.environment,
    data: r.data,
    preData: r.pre_data,
  };
}

/** The events of those ids (those that exist), in no particular order. */
export async function findEventsByIds(db: Queryable, ids: number[]): Promise<StoredEvent[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<EventRecord>(
    `SELECT id, type, created_by, created_by_user_id, created_at, project, feature_name, environment, data, pre_data
       FROM events WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return rows.map(toStoredEvent);
}

export async function findEvents(
  db: Queryable,
  f: EventFilter,
): Promise<{ events: StoredEvent[]; total: number }> {
  const { sql, params } = where(f);
  return pageOf(db, sql, params, f);
}

/** One page of the events a WHERE clause picks, newest first, and how many it picks in all. */
async function pageOf(
  db: Queryable,
  sql: string,
  params: unknown[],
  page: { limit: number; offset: number },
): Promise<{ events: StoredEvent[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.query<EventRecord>(
      `SELECT id, type, created_by, created_by_user_id, created_at, project, feature_name, environment, data, pre_data
         FROM events ${sql} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events ${sql}`, params),
  ]);
  return { total: count.rows[0]!.n, events: rows.rows.map(toStoredEvent) };
}

const SEARCH_COLUMNS: [keyof EventSearch, string, string][] = [
  ['ids', 'id', 'bigint[]'],
  ['features', 'feature_name', 'text[]'],
  ['projects', 'project', 'text[]'],
  ['types', 'type', 'text[]'],
  ['createdBy', 'created_by_user_id', 'int[]'],
  ['environments', 'environment', 'text[]'],
];

export async function searchEvents(
  db: Queryable,
  s: EventSearch,
): Promise<{ events: StoredEvent[]; total: number }> {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const [key, column, type] of SEARCH_COLUMNS) {
    const values = s[key];
    if (values === undefined) continue;
    params.push(values);
    clauses.push(`${column} = ANY($${params.length}::${type})`);
  }
  if (s.text !== undefined) {
    // LIKE's own characters in the text are meant literally.
    params.push(`%${s.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    clauses.push(`data::text ILIKE $${params.length}`);
  }
  if (s.from !== undefined) {
    params.push(s.from);
    clauses.push(`created_at >= $${params.length}`);
  }
  if (s.before !== undefined) {
    params.push(s.before);
    clauses.push(`created_at < $${params.length}`);
  }
  leaveOutProjects(s.hiddenProjects, clauses, params);
  return pageOf(db, clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params, s);
}

/**
 * Each user who made changes, with the name recorded on their latest event: one index probe per
 * user (a skip scan of events_created_by), so the cost follows the users, not the events.
 */
export async function findEventCreators(db: Queryable): Promise<{ id: number; recorded: string }[]> {
  const { rows } = await db.query<{ id: number; recorded: string }>(
    `WITH RECURSIVE creators AS (
       (SELECT created_by_user_id AS id, created_by AS recorded FROM events
         WHERE created_by_user_id IS NOT NULL ORDER BY created_by_user_id, id DESC LIMIT 1)
       UNION ALL
       SELECT next.id, next.recorded FROM creators c, LATERAL (
         SELECT created_by_user_id AS id, created_by AS recorded FROM events
          WHERE created_by_user_id > c.id ORDER BY created_by_user_id, id DESC LIMIT 1) next
     )
     SELECT id, recorded FROM creators ORDER BY id`,
  );
  return rows;
}
