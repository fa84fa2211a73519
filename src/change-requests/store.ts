import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { ChangeAction } from './kinds/kinds.js';
import type { Snapshot } from './kinds/snapshots.js';

export const STATES = [
  'Draft',
  'In review',
  'Approved',
  'Scheduled',
  'Applied',
  'Cancelled',
  'Rejected',
] as const;
export type State = (typeof STATES)[number];
/** A request in these states is done with: nothing changes it any more. */
export const CLOSED_STATES: readonly State[] = ['Applied', 'Cancelled', 'Rejected'];

export interface ChangeRequestRow {
  id: number;
  project: string;
  environment: string;
  title: string | null;
  state: State;
  minApprovals: number;
  stateTimestamps: Record<string, string>;
  createdByUserId: number | null;
  createdAt: Date;
  scheduledAt: Date | null;
  scheduleStatus: ScheduleStatus | null;
  scheduleReason: string | null;
  scheduledByUserId: number | null;
}

export type ScheduleStatus = 'pending' | 'suspended' | 'failed';

export interface ChangeRow {
  id: number;
  changeRequestId: number;
  feature: string | null;
  action: ChangeAction;
  payload: Record<string, unknown>;
  snapshot: Snapshot;
  createdByUserId: number | null;
  createdAt: Date;
}

const COLUMNS = `id, project, environment, title, state, min_approvals AS "minApprovals",
  state_timestamps AS "stateTimestamps", created_by_user_id AS "createdByUserId", created_at AS "createdAt",
  scheduled_at AS "scheduledAt", schedule_status AS "scheduleStatus", schedule_reason AS "scheduleReason",
  scheduled_by_user_id AS "scheduledByUserId"`;

export async function findChangeRequest(
  db: Queryable,
  id: number,
  options: ReadOptions = {},
): Promise<ChangeRequestRow | undefined> {
  const { rows } = await db.query<ChangeRequestRow>(
    withRowLock(`SELECT ${COLUMNS} FROM change_requests WHERE id = $1`, options.lock),
    [id],
  );
  return rows[0];
}

/** The user's draft for the environment of the project. */
export async function findDraft(
  db: Queryable,
  userId: number,
  project: string,
  environment: string,
  options: ReadOptions = {},
): Promise<ChangeRequestRow | undefined> {
  const { rows } = await db.query<ChangeRequestRow>(
    withRowLock(
      `SELECT ${COLUMNS} FROM change_requests
        WHERE created_by_user_id = $1 AND project = $2 AND environment = $3 AND state = 'Draft'`,
      options.lock,
    ),
    [userId, project, environment],
  );
  return rows[0];
}

export async function insertChangeRequest(
  db: Queryable,
  r: { project: string; environment: string; minApprovals: number; createdByUserId: number },
): Promise<ChangeRequestRow> {
  const { rows } = await db.query<ChangeRequestRow>(
    `INSERT INTO change_requests (project, environment, min_approvals, created_by_user_id, state_timestamps)
     VALUES ($1, $2, $3, $4, jsonb_build_object('Draft', now()))
     ON CONFLICT (created_by_user_id, project, environment) WHERE state = 'Draft' DO NOTHING
     RETURNING ${COLUMNS}`,
    [r.project, r.environment, r.minApprovals, r.createdByUserId],
  );
  // A concurrent first change of the same user made the draft first: this one joins it.
  return rows[0] ?? (await findDraft(db, r.createdByUserId, r.project, r.environment, { lock: 'update' }))!;
}

export async function setState(db: Queryable, id: number, state: State): Promise<void> {
  await db.query(
    `UPDATE change_requests
        SET state = $2, state_timestamps = state_timestamps || jsonb_build_object($2::text, now())
      WHERE id = $1`,
    [id, state],
  );
}

/** Schedules the request to be applied at `at` by the user, or reschedules it. */
export async function setSchedule(db: Queryable, id: number, at: Date, userId: number): Promise<void> {
  await db.query(
    `UPDATE change_requests SET scheduled_at = $2, schedule_status = 'pending', schedule_reason = NULL,
            scheduled_by_user_id = $3 WHERE id = $1`,
    [id, at, userId],
  );
}

/** A schedule that will not be carried out as it is: suspended or failed, and why. */
export async function stopSchedule(
  db: Queryable,
  id: number,
  status: Exclude<ScheduleStatus, 'pending'>,
  reason: string,
): Promise<void> {
  await db.query('UPDATE change_requests SET schedule_status = $2, schedule_reason = $3 WHERE id = $1', [
    id,
    status,
    reason,
  ]);
}

/** The scheduled requests still waiting for their time, oldest first. */
export async function waitingSchedules(db: Queryable): Promise<ChangeRequestRow[]> {
  const { rows } = await db.query<ChangeRequestRow>(
    `SELECT ${COLUMNS} FROM change_requests WHERE state = 'Scheduled' AND schedule_status = 'pending' ORDER BY id`,
  );
  return rows;
}

export async function setTitle(db: Queryable, id: number, title: string): Promise<void> {
  await db.query('UPDATE change_requests SET title = $2 WHERE id = $1', [id, title]);
}

export async function deleteChangeRequest(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM change_requests WHERE id = $1', [id]);
}

const CHANGE_COLUMNS = `id, change_request_id AS "changeRequestId", feature, action, payload, snapshot,
  created_by_user_id AS "createdByUserId", created_at AS "createdAt"`;

/** The changes of the requests, in the order they were added. */
export async function changesOf(db: Queryable, ids: readonly number[]): Promise<ChangeRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<ChangeRow>(
    `SELECT ${CHANGE_COLUMNS} FROM change_request_changes WHERE change_request_id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows;
}

export async function insertChange(
  db: Queryable,
  c: Omit<ChangeRow, 'id' | 'createdAt'>,
): Promise<ChangeRow> {
  const { rows } = await db.query<ChangeRow>(
    `INSERT INTO change_request_changes (change_request_id, feature, action, payload, snapshot, created_by_user_id)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6) RETURNING ${CHANGE_COLUMNS}`,
    // As JSON text: node-postgres would send a list (reorderStrategy's payload) as an array literal.
    [
      c.changeRequestId,
      c.feature,
      c.action,
      JSON.stringify(c.payload),
      c.snapshot === null ? null : JSON.stringify(c.snapshot),
      c.createdByUserId,
    ],
  );
  return rows[0]!;
}

/** Removes changes of the request; the ids of those that were there. */
export async function deleteChanges(
  db: Queryable,
  requestId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: number }>(
    'DELETE FROM change_request_changes WHERE change_request_id = $1 AND id = ANY($2::int[]) RETURNING id',
    [requestId, ids],
  );
  return rows.map((r) => r.id);
}

export interface RequestFilter {
  project?: string;
  /** Who asks: drafts are their authors' alone (null: nobody's draft shows). */
  viewerId: number | null;
  states?: readonly State[];
  createdBy?: number;
  /** Requests with a change of this flag. */
  feature?: string;
  /** Requests that ask this user to review them. */
  requestedApproverId?: number;
  hiddenProjects?: readonly string[];
  limit: number;
  offset?: number;
}

const MATCHES = `($1::text IS NULL OR project = $1)
  AND (state <> 'Draft' OR created_by_user_id = $2)
  AND ($3::text[] IS NULL OR state = ANY($3::text[]))
  AND ($4::int IS NULL OR created_by_user_id = $4)
  AND ($5::text IS NULL OR EXISTS (
        SELECT 1 FROM change_request_changes c WHERE c.change_request_id = cr.id AND c.feature = $5))
  AND ($6::int IS NULL OR EXISTS (
        SELECT 1 FROM change_request_reviewers r WHERE r.change_request_id = cr.id AND r.user_id = $6))
  AND NOT (project = ANY($7::text[]))`;

/** The requests that match, newest first, and how many match in all. */
export async function listRequests(
  db: Queryable,
  f: RequestFilter,
): Promise<{ rows: ChangeRequestRow[]; total: number }> {
  const params = [
    f.project ?? null,
    f.viewerId,
    f.states ?? null,
    f.createdBy ?? null,
    f.feature ?? null,
    f.requestedApproverId ?? null,
    f.hiddenProjects ?? [],
  ];
  const { rows } = await db.query<ChangeRequestRow & { total: string }>(
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM change_requests cr WHERE ${MATCHES}
      ORDER BY id DESC LIMIT $8 OFFSET $9`,
    [...params, f.limit, f.offset ?? 0],
  );
  if (rows.length > 0)
    return { rows: rows.map(({ total: _, ...row }) => row), total: Number(rows[0]!.total) };
  if (!f.offset) return { rows: [], total: 0 };
  // Asked past the last one: the count alone.
  const counted = await db.query<{ total: string }>(
    `SELECT count(*) AS total FROM change_requests cr WHERE ${MATCHES}`,
    params,
  );
  return { rows: [], total: Number(counted.rows[0]?.total ?? 0) };
}

/** How many of the project's requests (drafts aside) are in each state. */
export async function countByState(db: Queryable, project: string): Promise<Map<State, number>> {
  const { rows } = await db.query<{ state: State; count: string }>(
    `SELECT state, count(*) AS count FROM change_requests WHERE project = $1 AND state <> 'Draft' GROUP BY state`,
    [project],
  );
  return new Map(rows.map((r) => [r.state, Number(r.count)]));
}
