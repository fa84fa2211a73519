import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { existingEnvironments } from '../environments/store.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor, Identity, TokenKind } from '../http/identity.js';
import { assertPermission, can, type Permission } from '../http/permissions.js';
import { INT4_MAX } from '../http/schemas.js';
import { existingProjectIds } from '../projects/store.js';
import { hashSecret, randomHex } from '../secrets.js';
import {
  type ApiToken,
  deleteApiToken,
  findApiToken,
  insertApiToken,
  listApiTokens,
  listApiTokensNamed,
  listApiTokensOfProject,
  setApiTokenExpiry,
  setApiTokenProjects,
} from './store.js';

const READ: Record<TokenKind, Permission> = {
  admin: 'ADMIN',
  client: 'READ_CLIENT_API_TOKEN',
  frontend: 'READ_FRONTEND_API_TOKEN',
};
const CREATE: Record<TokenKind, Permission> = {
  admin: 'ADMIN',
  client: 'CREATE_CLIENT_API_TOKEN',
  frontend: 'CREATE_FRONTEND_API_TOKEN',
};
const DELETE: Record<TokenKind, Permission> = {
  admin: 'ADMIN',
  client: 'DELETE_CLIENT_API_TOKEN',
  frontend: 'DELETE_FRONTEND_API_TOKEN',
};

export const TOKEN_READ_PERMISSIONS = Object.values(READ);
export const TOKEN_CREATE_PERMISSIONS = Object.values(CREATE);
export const TOKEN_DELETE_PERMISSIONS = Object.values(DELETE);

export interface ApiTokenInput {
  tokenName?: string;
  username?: string;
  type: string;
  environment?: string;
  project?: string;
  projects?: string[];
  expiresAt?: string;
  alias?: string;
}

function projectPart(projects: string[]): string {
  return projects.length === 1 ? projects[0]! : '[]';
}

export function describeApiToken(t: ApiToken, secret?: string) {
  return {
    id: t.id,
    secret: secret ?? `${t.secretPrefix}${'*'.repeat(8)}`,
    tokenName: t.tokenName,
    username: t.tokenName,
    type: t.type,
    environment: t.environment,
    project: projectPart(t.projects),
    projects: t.projects,
    alias: t.alias,
    expiresAt: t.expiresAt,
    createdAt: t.createdAt,
    seenAt: t.seenAt,
  };
}

export function parseType(type: string): TokenKind {
  const t = type.toLowerCase();
  if (t === 'backend' || t === 'client') return 'client';
  if (t === 'frontend' || t === 'admin') return t;
  throw new ValidationError(
    `The token type must be "client", "backend", "frontend" or "admin" (got "${type}").`,
    [{ path: 'type', message: 'Unknown token type.' }],
  );
}

export interface TokenScope {
  type: TokenKind;
  environment: string;
  projects: string[];
}

/** The scoping rules every token obeys, whether made through the API or at start-up. */
export async function checkScope(db: Queryable, scope: TokenScope): Promise<void> {
  const { type, environment, projects } = scope;
  if (type === 'admin') {
    if (environment !== '*' || projects.length !== 1 || projects[0] !== '*') {
      throw new ValidationError(
        'An admin token covers every project and environment: leave project and environment out.',
      );
    }
    return;
  }
  if (environment === '*') {
    throw new ValidationError(`A ${type} token must name one environment, not "*".`, [
      { path: 'environment', message: 'Name one environment.' },
    ]);
  }
  if (projects.length === 0) {
    throw new ValidationError('A token must cover at least one project (or "*" for all).', [
      { path: 'projects', message: 'Name at least one project.' },
    ]);
  }
  if (projects.includes('*') && projects.length > 1) {
    throw new ValidationError('"*" already covers every project: do not list others beside it.', [
      { path: 'projects', message: 'Use either "*" or a list of projects.' },
    ]);
  }
  if (!(await existingEnvironments(db, [environment])).has(environment)) {
    throw new ValidationError(`The environment "${environment}" does not exist.`, [
      { path: 'environment', message: `Unknown environment "${environment}".` },
    ]);
  }
  const named = projects.filter((p) => p !== '*');
  // Held until the token is stored: a project deleted meanwhile takes its tokens with it, and one
  // being deleted makes this wait and then refuse.
  const existing = await existingProjectIds(db, named, { lock: 'share' });
  const missing = named.filter((p) => !existing.has(p));
  if (missing.length > 0) {
    throw new ValidationError(`These projects do not exist: ${missing.join(', ')}.`, [
      { path: 'projects', message: `Unknown projects: ${missing.join(', ')}.` },
    ]);
  }
}

/** The name a body gives a token: `tokenName`, or `username` as older clients send it. */
export function tokenNameOf(input: { tokenName?: string; username?: string }): string {
  const tokenName = (input.tokenName ?? input.username ?? '').trim();
  if (!tokenName) {
    throw new ValidationError('The token needs a name: send `tokenName`.', [
      { path: 'tokenName', message: 'The `tokenName` property is required.' },
    ]);
  }
  return tokenName;
}

/** A requested expiry, which must lie ahead. */
export function futureExpiry(expiresAt: string): Date {
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) {
    throw new ValidationError('`expiresAt` must be a date-time in the future.', [
      { path: 'expiresAt', message: 'Past or invalid date.' },
    ]);
  }
  return at;
}

/** What an event tells of a token: its scope, never its secret. */
function tokenFacts(t: ApiToken) {
  return {
    id: t.id,
    tokenName: t.tokenName,
    type: t.type,
    environment: t.environment,
    projects: t.projects,
    expiresAt: t.expiresAt,
  };
}

/** The project and environment an event of the token is filed under. */
function tokenPlace(t: { type: TokenKind; environment: string; projects: string[] }) {
  return {
    environment: t.type === 'admin' ? null : t.environment,
    project: t.projects.length === 1 && t.projects[0] !== '*' ? t.projects[0] : null,
  };
}

export interface NewToken extends TokenScope {
  tokenName: string;
  expiresAt: Date | null;
  alias: string | null;
}

/** Checks the scope, stores the token and records it; the answer holds the secret, once. */
export async function issueApiToken(tx: Transaction, actor: Actor, t: NewToken) {
  await checkScope(tx, t);
  const prefix = `${t.type === 'admin' ? '*' : projectPart(t.projects)}:${t.environment}.`;
  const secret = prefix + randomHex(28);
  const token = await insertApiToken(tx, {
    secretHash: hashSecret(secret),
    secretPrefix: prefix,
    tokenName: t.tokenName,
    type: t.type,
    environment: t.environment,
    projects: t.projects,
    alias: t.alias,
    createdBy: actor.name,
    expiresAt: t.expiresAt,
  });
  recordEvent(tx, actor, { type: 'api-token-created', ...tokenPlace(token), data: tokenFacts(token) });
  return describeApiToken(token, secret);
}

export async function createApiToken(
  ctx: AppContext,
  identity: Identity,
  actor: Actor,
  input: ApiTokenInput,
) {
  const tokenName = tokenNameOf(input);
  const type = parseType(input.type);
  const environment = input.environment ?? (type === 'admin' ? '*' : 'development');
  const projects = input.projects ?? (input.project !== undefined ? [input.project] : ['*']);
  const expiresAt = input.expiresAt ? futureExpiry(input.expiresAt) : null;
  assertPermission(identity, CREATE[type]);
  return ctx.db.transaction((tx) =>
    issueApiToken(tx, actor, {
      tokenName,
      type,
      environment,
      projects,
      expiresAt,
      alias: input.alias ?? null,
    }),
  );
}

export async function listApiTokensFor(ctx: AppContext, identity: Identity) {
  const tokens = await listApiTokens(ctx.db, readableKinds(identity));
  return { tokens: tokens.map((t) => describeApiToken(t)) };
}

/** The tokens called `tokenName`, of the kinds the caller may read. */
export async function readApiTokensNamed(ctx: AppContext, identity: Identity, tokenName: string) {
  const tokens = await listApiTokensNamed(ctx.db, tokenName, readableKinds(identity));
  return { tokens: tokens.map((t) => describeApiToken(t)) };
}

function readableKinds(identity: Identity): TokenKind[] {
  return (Object.keys(READ) as TokenKind[]).filter((k) => can(identity, READ[k]));
}

/**
 * A token by its secret, or by the `id` shown in the lists (the secret itself is only shown
 * once), locked for the change; null when none matches.
 */
export async function findTokenByRef(tx: Transaction, ref: string): Promise<ApiToken | null> {
  if (!/^\d+$/.test(ref)) {
    return findApiToken(tx, { secretHash: hashSecret(ref) }, { lock: 'exclusive' });
  }
  // Ids are int4: a number beyond names no token (and the database would refuse to compare it).
  const id = Number(ref);
  return id <= INT4_MAX ? findApiToken(tx, { id }, { lock: 'exclusive' }) : null;
}

/** Deletes the token (it stops working from the next request) and records what it was. */
export async function discardApiToken(tx: Transaction, actor: Actor, token: ApiToken): Promise<void> {
  await deleteApiToken(tx, token.id);
  recordEvent(tx, actor, { type: 'api-token-deleted', ...tokenPlace(token), preData: tokenFacts(token) });
}

/**
 * The tokens of a project being deleted: a token of that project alone is deleted, one of several
 * projects loses it from its list, each with its event. A project made later under the same name
 * inherits none of them.
 */
export async function discardProjectApiTokens(tx: Transaction, actor: Actor, project: string): Promise<void> {
  for (const token of await listApiTokensOfProject(tx, project, { lock: 'exclusive' })) {
    if (token.projects.length === 1) {
      await discardApiToken(tx, actor, token);
      continue;
    }
    const updated = await setApiTokenProjects(
      tx,
      token.id,
      token.projects.filter((p) => p !== project),
    );
    recordEvent(tx, actor, {
      type: 'api-token-updated',
      ...tokenPlace(token),
      preData: tokenFacts(token),
      data: tokenFacts(updated),
    });
  }
}

export async function removeApiToken(
  ctx: AppContext,
  identity: Identity,
  actor: Actor,
  ref: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const token = await findTokenByRef(tx, ref);
    if (!token) throw new NotFoundError('No API token matches that secret or id.');
    assertPermission(identity, DELETE[token.type]);
    await discardApiToken(tx, actor, token);
  });
}

/**
 * Moves the token's expiry (an expired token may be brought back this way). Whoever may create
 * tokens of its kind may change it; the cached credential follows at once.
 */
export async function updateApiTokenExpiry(
  ctx: AppContext,
  identity: Identity,
  actor: Actor,
  ref: string,
  expiresAt: string,
) {
  const at = futureExpiry(expiresAt);
  await ctx.db.transaction(async (tx) => {
    const token = await findTokenByRef(tx, ref);
    if (!token) throw new NotFoundError('No API token matches that secret or id.');
    assertPermission(identity, CREATE[token.type]);
    const updated = await setApiTokenExpiry(tx, token.id, at);
    recordEvent(tx, actor, {
      type: 'api-token-updated',
      ...tokenPlace(token),
      preData: tokenFacts(token),
      data: tokenFacts(updated),
    });
  });
}
