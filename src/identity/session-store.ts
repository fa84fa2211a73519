import type { Queryable } from '../db/database.js';

// The sessions table: a session is known by the hash of its id, which only the browser keeps.

export async function insertSession(
  db: Queryable,
  idHash: string,
  userId: number,
  ttlSeconds: number,
  idToken: string | null,
): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id_hash, user_id, expires_at, id_token)
     VALUES ($1, $2, now() + make_interval(secs => $3), $4)`,
    [idHash, userId, ttlSeconds, idToken],
  );
}

/** The user a live session (by the hash of its id) belongs to, and when it expires. */
export async function findSession(
  db: Queryable,
  idHash: string,
): Promise<{ userId: number; expiresAt: Date } | null> {
  const { rows } = await db.query<{ user_id: number; expires_at: Date }>(
    'SELECT user_id, expires_at FROM sessions WHERE id_hash = $1 AND expires_at > now()',
    [idHash],
  );
  return rows[0] ? { userId: rows[0].user_id, expiresAt: rows[0].expires_at } : null;
}

/** Removes the session; answers the ID token it was started with (null when it was not there). */
export async function deleteSession(db: Queryable, idHash: string): Promise<string | null> {
  const { rows } = await db.query<{ id_token: string | null }>(
    'DELETE FROM sessions WHERE id_hash = $1 RETURNING id_token',
    [idHash],
  );
  return rows[0]?.id_token ?? null;
}

export async function deleteSessionsOf(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
}

/** Retention: sessions that expired a while ago. */
export async function deleteExpiredSessions(db: Queryable, before: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM sessions WHERE expires_at < $1', [before]);
  return rowCount;
}
