import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface SignupToken {
  id: number;
  secret: string;
  name: string;
  enabled: boolean;
  expiresAt: Date;
  createdBy: string | null;
  createdAt: Date;
  role: { id: number; name: string; type: string };
}

export interface TokenUser {
  id: number;
  name: string | null;
  username: string | null;
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
  role_name: string;
  role_type: string;
}

const SELECT = `SELECT t.id, t.secret, t.name, t.enabled, t.expires_at, t.created_by, t.created_at,
                       r.id AS role_id, r.name AS role_name, r.type AS role_type
                  FROM public_signup_tokens t JOIN roles r ON r.id = t.role_id`;

function toToken(r: TokenRecord): SignupToken {
  return {
    id: r.id,
    secret: r.secret,
    name: r.name,
    enabled: r.enabled,
    expiresAt: r.expires_at,
    createdBy: r.created_by,
    createdAt: r.created_at,
    role: { id: r.role_id, name: r.role_name, type: r.role_type },
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
): Promise<SignupToken | null> {
  const { rows } = await db.query<TokenRecord>(withRowLock(`${SELECT} WHERE t.secret = $1`, lock, 't'), [
    secret,
  ]);
  return rows[0] ? toToken(rows[0]) : null;
}

export async function listTokens(db: Queryable): Promise<SignupToken[]> {
  const { rows } = await db.query<TokenRecord>(`${SELECT} ORDER BY t.created_at DESC, t.id DESC`);
  return rows.map(toToken);
}

export async function usersOfTokens(
  db: Queryable,
  secrets: string[] | null,
): Promise<Map<string, TokenUser[]>> {
  const { rows } = await db.query<TokenUser & { secret: string }>(
    `SELECT tu.secret, u.id, u.name, u.username
       FROM public_signup_token_users tu JOIN users u ON u.id = tu.user_id
      WHERE $1::text[] IS NULL OR tu.secret = ANY($1::text[])
      ORDER BY tu.created_at, u.id`,
    [secrets],
  );
  const bySecret = new Map<string, TokenUser[]>();
  for (const { secret, ...user } of rows) {
    const list = bySecret.get(secret);
    if (list) list.push(user);
    else bySecret.set(secret, [user]);
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
