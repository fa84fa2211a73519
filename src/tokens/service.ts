import type { AppContext } from '../app-context.js';
import type { Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError } from '../http/errors.js';
import type { Actor, Identity, TokenKind } from '../http/identity.js';
import { assertPermission, can, type Permission } from '../http/permissions.js';
import { INT4_MAX } from '../http/schemas.js';
import { hashSecret, randomHex } from '../secrets.js';
import {
  type ApiTokenInput,
  checkScope,
  describeApiToken,
  futureExpiry,
  parseType,
  projectPart,
  type TokenScope,
  tokenNameOf,
} from './scope.js';
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
