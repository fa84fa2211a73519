import type { Queryable } from '../db/database.js';

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
  limit: number;
  offset: number;
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export async function insertEvent(db: Queryable, e: NewEvent): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO events (type, created_by, created_by_user_id, project, feature_name, environment, data, pre_data)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb) RETURNING id`,
    [
      e.type,
      e.createdBy,
      e.createdByUserId,
      e.project ?? null,
      e.featureName ?? null,
      e.environment ?? null,
      json(e.data),
      json(e.preData),
    ],
  );
  return rows[0]!.id;
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
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export async function findEvents(
  db: Queryable,
  f: EventFilter,
): Promise<{ events: StoredEvent[]; total: number }> {
  const { sql, params } = where(f);
  const [page, count] = await Promise.all([
    db.query<{
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
    }>(
      `SELECT id, type, created_by, created_by_user_id, created_at, project, feature_name, environment, data, pre_data
         FROM events ${sql} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, f.limit, f.offset],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events ${sql}`, params),
  ]);
  return {
    total: count.rows[0]!.n,
    events: page.rows.map((r) => ({
      id: r.id,
      type: r.type,
      createdBy: r.created_by,
      createdByUserId: r.created_by_user_id,
      createdAt: r.created_at,
      project: r.project,
      featureName: r.feature_name,
      environment: r.environment,
      data: r.data,
      preData: r.pre_data,
    })),
  };
}
