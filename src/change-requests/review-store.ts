import type { Queryable } from '../db/database.js';

// The review of change requests: approvals and rejections, comments, the reviewers asked for.

export interface ReviewRow {
  changeRequestId: number;
  userId: number;
  verdict: 'approved' | 'rejected';
  createdAt: Date;
}

export interface CommentRow {
  id: number;
  changeRequestId: number;
  text: string;
  createdByUserId: number | null;
  createdAt: Date;
}

export async function reviewsOf(db: Queryable, ids: readonly number[]): Promise<ReviewRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<ReviewRow>(
    `SELECT change_request_id AS "changeRequestId", user_id AS "userId", verdict, created_at AS "createdAt"
       FROM change_request_reviews WHERE change_request_id = ANY($1::int[]) ORDER BY created_at, user_id`,
    [ids],
  );
  return rows;
}

/** Records the user's verdict; false when they had given it already. */
export async function addReview(
  db: Queryable,
  requestId: number,
  userId: number,
  verdict: ReviewRow['verdict'],
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO change_request_reviews (change_request_id, user_id, verdict) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [requestId, userId, verdict],
  );
  return rowCount > 0;
}

/** Drops the approvals given: what they approved has changed. */
export async function clearApprovals(db: Queryable, requestId: number): Promise<void> {
  await db.query(`DELETE FROM change_request_reviews WHERE change_request_id = $1 AND verdict = 'approved'`, [
    requestId,
  ]);
}

export async function commentsOf(db: Queryable, ids: readonly number[]): Promise<CommentRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<CommentRow>(
    `SELECT id, change_request_id AS "changeRequestId", text, created_by_user_id AS "createdByUserId",
            created_at AS "createdAt"
       FROM change_request_comments WHERE change_request_id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows;
}

export async function insertComment(db: Queryable, requestId: number, text: string, userId: number | null) {
  await db.query(
    'INSERT INTO change_request_comments (change_request_id, text, created_by_user_id) VALUES ($1, $2, $3)',
    [requestId, text, userId],
  );
}

/** The users asked to review each request, by request. */
export async function reviewerIdsOf(db: Queryable, ids: readonly number[]): Promise<Map<number, number[]>> {
  const byRequest = new Map<number, number[]>();
  if (ids.length === 0) return byRequest;
  const { rows } = await db.query<{ changeRequestId: number; userId: number }>(
    `SELECT change_request_id AS "changeRequestId", user_id AS "userId" FROM change_request_reviewers
      WHERE change_request_id = ANY($1::int[]) ORDER BY user_id`,
    [ids],
  );
  for (const r of rows)
    byRequest.set(r.changeRequestId, [...(byRequest.get(r.changeRequestId) ?? []), r.userId]);
  return byRequest;
}

export async function replaceReviewers(db: Queryable, requestId: number, userIds: readonly number[]) {
  await db.query('DELETE FROM change_request_reviewers WHERE change_request_id = $1', [requestId]);
  if (userIds.length === 0) return;
  await db.query(
    `INSERT INTO change_request_reviewers (change_request_id, user_id)
     SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
    [requestId, userIds],
  );
}

/** The users who may approve changes in the environment of the project, by name. */
export async function approverIds(db: Queryable, project: string, environment: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT u.id FROM users u
      WHERE EXISTS (
        SELECT 1 FROM user_grants(u.id) g
         WHERE (g.project IS NULL AND g.permission IN ('ADMIN', 'APPROVE_CHANGE_REQUEST'))
            OR (g.permission = 'APPROVE_CHANGE_REQUEST' AND g.project = $1 AND g.environment IN ('', $2)))
      ORDER BY coalesce(u.name, u.username, u.email), u.id`,
    [project, environment],
  );
  return rows.map((r) => r.id);
}
