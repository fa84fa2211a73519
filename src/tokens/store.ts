import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';
import type { TokenKind } from '../http/identity.js';

export interface ApiToken {
  id: number;
  secretPrefix: string;
  tokenName: string;
  type: TokenKind;
  environment: string;
  projects: string[];
  alias: string | null;
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  seenAt: Date | null;
}

interface ApiTokenRecord {
  id: number;
  secret_prefix: string;
  token_name: string;
  type: TokenKind;
  environment: string;
  projects: string[];
  alias: string | null;
  created_by: string | null;
  created_at: Date;
  expires_at: Date | null;
  seen_at: Date | null;
}

const API_TOKEN_COLUMNS =
  'id, secret_prefix, token_name, type, environment, projects, alias, created_by, created_at, expires_at, seen_at';

function toApiToken(r: ApiTokenRecord): ApiToken {
  return {
    id: r.id,
    secretPrefix: r.secret_prefix,
    tokenName: r.token_name,
    type: r.type,
    environment: r.environment,
    projects: r.projects,
    alias: r.alias,
    createdBy: r.created_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    seenAt: r.seen_at,
  };
}

export async function findActiveApiToken(db: Queryable, secretHash: string): Promise<ApiToken | null> {
  const { rows } = await db.query<ApiTokenRecord>(
    `SELECT ${API_TOKEN_COLUMNS} FROM api_tokens
      WHERE secret_hash = $1 AND (expires_at IS NULL OR expires_at > now())`,
    [secretHash],
  );
  return rows[0] ? toApiToken(rows[0]) : null;
}

/** The active API tokens of these secret hashes, by hash. */
export async function findActiveApiTokens(
  db: Queryable,
  secretHashes: string[],
): Promise<Map<string, ApiToken>> {
  const { rows } = await db.query<ApiTokenRecord & { secret_hash: string }>(
    `SELECT ${API_TOKEN_COLUMNS}, secret_hash FROM api_tokens
      WHERE secret_hash = ANY($1::text[]) AND (expires_at IS NULL OR expires_at > now())`,
    [secretHashes],
  );
  return new Map(rows.map((r) => [r.secret_hash, toApiToken(r)]));
}

export async function apiTokenExists(db: Queryable, secretHash: string): Promise<boolean> {
  return (await existingApiTokens(db, [secretHash])).size > 0;
}

/** Which of these secret hashes name a token already (expired ones included). */
export async function existingApiTokens(db: Queryable, secretHashes: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ secret_hash: string }>(
    'SELECT secret_hash FROM api_tokens WHERE secret_hash = ANY($1::text[])',
    [secretHashes],
  );
  return new Set(rows.map((r) => r.secret_hash));
}

export interface NewApiToken {
  secretHash: string;
  secretPrefix: string;
  tokenName: string;
  type: TokenKind;
  environment: string;
  projects: string[];
  alias: string | null;
  createdBy: string | null;
  expiresAt: Date | null;
}

export async function insertApiToken(db: Queryable, t: NewApiToken): Promise<ApiToken> {
  const { rows } = await db.query<ApiTokenRecord>(
    `INSERT INTO api_tokens (secret_hash, secret_prefix, token_name, type, environment, projects, alias, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9) RETURNING ${API_TOKEN_COLUMNS}`,
    [
      t.secretHash,
      t.secretPrefix,
      t.tokenName,
      t.type,
      t.environment,
      t.projects,
      t.alias,
      t.createdBy,
      t.expiresAt,
    ],
  );
  return toApiToken(rows[0]!);
}

export async function listApiTokens(db: Queryable, types: TokenKind[]): Promise<ApiToken[]> {
  const { rows } = await db.query<ApiTokenRecord>(
    `SELECT ${API_TOKEN_COLUMNS} FROM api_tokens WHERE type = ANY($1::text[]) ORDER BY id`,
    [types],
  );
  return rows.map(toApiToken);
}

/** The tokens that name the project among theirs (tokens of every project, `*`, are not listed). */
export async function listApiTokensOfProject(
  db: Queryable,
  project: string,
  { lock }: ReadOptions = {},
): Promise<ApiToken[]> {
  const { rows } = await db.query<ApiTokenRecord>(
    withRowLock(
      `SELECT ${API_TOKEN_COLUMNS} FROM api_tokens WHERE projects @> ARRAY[$1]::text[] ORDER BY id`,
      lock,
    ),
    [project],
  );
  return rows.map(toApiToken);
}

export async function listApiTokensNamed(
  db: Queryable,
  tokenName: string,
  types: TokenKind[],
): Promise<ApiToken[]> {
  const { rows } = await db.query<ApiTokenRecord>(
    `SELECT ${API_TOKEN_COLUMNS} FROM api_tokens WHERE token_name = $1 AND type = ANY($2::text[]) ORDER BY id`,
    [tokenName, types],
  );
  return rows.map(toApiToken);
}

export async function findApiToken(
  db: Queryable,
  by: { id: number } | { secretHash: string },
  { lock }: ReadOptions = {},
): Promise<ApiToken | null> {
  const [column, value] = 'id' in by ? ['id', by.id] : ['secret_hash', by.secretHash];
  const { rows } = await db.query<ApiTokenRecord>(
    withRowLock(`SELECT ${API_TOKEN_COLUMNS} FROM api_tokens WHERE ${column} = $1`, lock),
    [value],
  );
  return rows[0] ? toApiToken(rows[0]) : null;
}

export async function deleteApiToken(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM api_tokens WHERE id = $1', [id]);
}

export async function setApiTokenExpiry(db: Queryable, id: number, expiresAt: Date): Promise<ApiToken> {
  const { rows } = await db.query<ApiTokenRecord>(
    `UPDATE api_tokens SET expires_at = $2 WHERE id = $1 RETURNING ${API_TOKEN_COLUMNS}`,
    [id, expiresAt],
  );
  return toApiToken(rows[0]!);
}

/** The token's projects replaced; answers the token as it now is. */
export async function setApiTokenProjects(db: Queryable, id: number, projects: string[]): Promise<ApiToken> {
  const { rows } = await db.query<ApiTokenRecord>(
    `UPDATE api_tokens SET projects = $2::text[] WHERE id = $1 RETURNING ${API_TOKEN_COLUMNS}`,
    [id, projects],
  );
  return toApiToken(rows[0]!);
}

export async function touchApiToken(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE api_tokens SET seen_at = now() WHERE id = $1', [id]);
}

export interface Pat {
  id: number;
  description: string;
  userId: number;
  createdAt: Date;
  expiresAt: Date;
  seenAt: Date | null;
}

interface PatRecord {
  id: number;
  description: string;
  user_id: number;
  created_at: Date;
  expires_at: Date;
  seen_at: Date | null;
}

const PAT_COLUMNS = 'id, description, user_id, created_at, expires_at, seen_at';

function toPat(r: PatRecord): Pat {
  return {
    id: r.id,
    description: r.description,
    userId: r.user_id,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    seenAt: r.seen_at,
  };
}

export async function findActivePat(db: Queryable, secretHash: string): Promise<Pat | null> {
  const { rows } = await db.query<PatRecord>(
    `SELECT ${PAT_COLUMNS} FROM personal_access_tokens WHERE secret_hash = $1 AND expires_at > now()`,
    [secretHash],
  );
  return rows[0] ? toPat(rows[0]) : null;
}

export async function insertPat(
  db: Queryable,
  p: { secretHash: string; description: string; userId: number; expiresAt: Date },
): Promise<Pat> {
  const { rows } = await db.query<PatRecord>(
    `INSERT INTO personal_access_tokens (secret_hash, description, user_id, expires_at)
     VALUES ($1, $2, $3, $4) RETURNING ${PAT_COLUMNS}`,
    [p.secretHash, p.description, p.userId, p.expiresAt],
  );
  return toPat(rows[0]!);
}

export async function listPats(db: Queryable, userId: number): Promise<Pat[]> {
  const { rows } = await db.query<PatRecord>(
    `SELECT ${PAT_COLUMNS} FROM personal_access_tokens WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  return rows.map(toPat);
}

export async function findPat(
  db: Queryable,
  userId: number,
  id: number,
  { lock }: ReadOptions = {},
): Promise<Pat | null> {
  const { rows } = await db.query<PatRecord>(
    withRowLock(`SELECT ${PAT_COLUMNS} FROM personal_access_tokens WHERE user_id = $1 AND id = $2`, lock),
    [userId, id],
  );
  return rows[0] ? toPat(rows[0]) : null;
}

export async function deletePat(db: Queryable, userId: number, id: number): Promise<void> {
  await db.query('DELETE FROM personal_access_tokens WHERE user_id = $1 AND id = $2', [userId, id]);
}

export async function deletePatsOf(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM personal_access_tokens WHERE user_id = $1', [userId]);
}

export async function touchPat(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE personal_access_tokens SET seen_at = now() WHERE id = $1', [id]);
}

/** When each of these users last used any of their personal access tokens (never: absent). */
export async function lastPatUse(db: Queryable, userIds: number[]): Promise<Map<number, Date>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await db.query<{ user_id: number; seen_at: Date }>(
    `SELECT user_id, max(seen_at) AS seen_at FROM personal_access_tokens
      WHERE user_id = ANY($1::int[]) AND seen_at IS NOT NULL GROUP BY user_id`,
    [userIds],
  );
  return new Map(rows.map((r) => [r.user_id, r.seen_at]));
}
