import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

/** An invite link as stored: its role by id (roles/ knows the rest). */
export interface SignupTokenRow {
  id: number;
  secret: string;
  name: string;
  enabled: boolean;
  expiresAt: Date;
  createdBy: string | null;
  createdAt: Date;
  roleId: number;
}

interface TokenRecord {
  id: number;
  secret: string;
  name: string;
  enabled: boolean;
  expires_at: Date;
  created_by: string | null;
  created_at: Date;
  role_id: number;
}

const SELECT = `SELECT id, secret, name, enabled, expires_at, created_by, created_at, role_id
                  FROM public_signup_tokens`;

function toToken(r: TokenRecord): SignupTokenRow {
  return {
    id: r.id,
    secret: r.secret,
    name: r.name,
    enabled: r.enabled,
    expiresAt: r.expires_at,
    createdBy: r.created_by,
    createdAt: r.created_at,
    roleId: r.role_id,
  };
}

export async function insertToken(
  db: Queryable,
  t: { secret: string; name: string; expiresAt: Date; roleId: number; createdBy: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO public_signup_tokens (secret, name, expires_at, role_id, created_by)
     VALUES ($1, $2, $3, $4, $5)`,
    [t.secret, t.name, t.expiresAt, t.roleId, t.createdBy],
  );
}

export async function findToken(
  db: Queryable,
  secret: string,
  { lock }: ReadOptions = {},
): Promise<SignupTokenRow | null> {
  const { rows } = await db.query<TokenRecord>(withRowLock(`${SELECT} WHERE secret = $1`, lock), [secret]);
  return rows[0] ? toToken(rows[0]) : null;
}

export async function listTokens(db: Queryable): Promise<SignupTokenRow[]> {
  const { rows } = await db.query<TokenRecord>(`${SELECT} ORDER BY created_at DESC, id DESC`);
  return rows.map(toToken);
}

/** The ids of the users who signed up with each of the tokens (all when `secrets` is null), earliest first. */
export async function userIdsOfTokens(
  db: Queryable,
  secrets: string[] | null,
): Promise<Map<string, number[]>> {
  const { rows } = await db.query<{ secret: string; user_id: number }>(
    `SELECT secret, user_id FROM public_signup_token_users
      WHERE $1::text[] IS NULL OR secret = ANY($1::text[])
      ORDER BY created_at, user_id`,
    [secrets],
  );
  const bySecret = new Map<string, number[]>();
  for (const { secret, user_id } of rows) {
    const list = bySecret.get(secret);
    if (list) list.push(user_id);
    else bySecret.set(secret, [user_id]);
  }
  return bySecret;
}

export async function updateToken(
  db: Queryable,
  secret: string,
  change: { expiresAt: Date; enabled: boolean },
): Promise<void> {
  await db.query('UPDATE public_signup_tokens SET expires_at = $2, enabled = $3 WHERE secret = $1', [
    secret,
    change.expiresAt,
    change.enabled,
  ]);
}

export async function addTokenUser(db: Queryable, secret: string, userId: number): Promise<void> {
  await db.query('INSERT INTO public_signup_token_users (secret, user_id) VALUES ($1, $2)', [secret, userId]);
}
