import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface Feedback {
  userId: number;
  feedbackId: string;
  neverShow: boolean;
  given: Date | null;
}

interface FeedbackRecord {
  user_id: number;
  feedback_id: string;
  never_show: boolean;
  given: Date | null;
}

function toFeedback(r: FeedbackRecord): Feedback {
  return { userId: r.user_id, feedbackId: r.feedback_id, neverShow: r.never_show, given: r.given };
}

export async function findFeedback(
  db: Queryable,
  userId: number,
  feedbackId: string,
  { lock }: ReadOptions = {},
): Promise<Feedback | null> {
  const { rows } = await db.query<FeedbackRecord>(
    withRowLock(
      'SELECT user_id, feedback_id, never_show, given FROM user_feedback WHERE user_id = $1 AND feedback_id = $2',
      lock,
    ),
    [userId, feedbackId],
  );
  return rows[0] ? toFeedback(rows[0]) : null;
}

export async function saveFeedback(db: Queryable, f: Feedback): Promise<Feedback> {
  const { rows } = await db.query<FeedbackRecord>(
    `INSERT INTO user_feedback (user_id, feedback_id, never_show, given) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, feedback_id) DO UPDATE SET never_show = EXCLUDED.never_show, given = EXCLUDED.given
     RETURNING user_id, feedback_id, never_show, given`,
    [f.userId, f.feedbackId, f.neverShow, f.given],
  );
  return toFeedback(rows[0]!);
}

export async function listFeedbackOf(db: Queryable, userId: number): Promise<Feedback[]> {
  const { rows } = await db.query<FeedbackRecord>(
    'SELECT user_id, feedback_id, never_show, given FROM user_feedback WHERE user_id = $1 ORDER BY feedback_id',
    [userId],
  );
  return rows.map(toFeedback);
}
