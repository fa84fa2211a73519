import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { existingEnvironments } from '../environments/store.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor, Identity, TokenKind } from '../http/identity.js';
import { assertPermission, can, type Permission } from '../http/permissions.js';
import { INT4_MAX } from '../http/schemas.js';
import {
  type ApiToken,
  apiTokenExists,
  deleteApiToken,
  existingApiTokens,
  findApiToken,
  insertApiToken,
  listApiTokens,
} from '../identity/token-store.js';
import { existingProjectIds } from '../projects/store.js';
import { hashSecret, randomHex } from '../secrets.js';

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

function parseType(type: string): TokenKind {
  const t = type.toLowerCase();
  if (t === 'backend' || t === 'client') return 'client';
  if (t === 'frontend' || t === 'admin') return t;
  throw new ValidationError(
    `The token type must be "client", "backend", "frontend" or "admin" (got "${type}").`,
    [{ path: 'type', message: 'Unknown token type.' }],
  );
}

interface TokenScope {
  type: TokenKind;
  environment: string;
  projects: string[];
}

/** The scoping rules every token obeys, whether made through the API or at start-up. */
async function checkScope(db: Queryable, scope: TokenScope): Promise<void> {
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
  const existing = await existingProjectIds(db, named);
  const missing = named.filter((p) => !existing.has(p));
  if (missing.length > 0) {
    throw new ValidationError(`These projects do not exist: ${missing.join(', ')}.`, [
      { path: 'projects', message: `Unknown projects: ${missing.join(', ')}.` },
    ]);
  }
}

export async function createApiToken(
  ctx: AppContext,
  identity: Identity,
  actor: Actor,
  input: ApiTokenInput,
) {
  const tokenName = (input.tokenName ?? input.username ?? '').trim();
  if (!tokenName) {
    throw new ValidationError('The token needs a name: send `tokenName`.', [
      { path: 'tokenName', message: 'The `tokenName` property is required.' },
    ]);
  }
  const type = parseType(input.type);
  const environment = input.environment ?? (type === 'admin' ? '*' : 'development');
  const projects = input.projects ?? (input.project !== undefined ? [input.project] : ['*']);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw new ValidationError('`expiresAt` must be in the future.', [
      { path: 'expiresAt', message: 'Past date.' },
    ]);
  }
  assertPermission(identity, CREATE[type]);

  return ctx.db.transaction(async (tx) => {
    await checkScope(tx, { type, environment, projects });
    const prefix = `${type === 'admin' ? '*' : projectPart(projects)}:${environment}.`;
    const secret = prefix + randomHex(28);
    const token = await insertApiToken(tx, {
      secretHash: hashSecret(secret),
      secretPrefix: prefix,
      tokenName,
      type,
      environment,
      projects,
      alias: input.alias ?? null,
      createdBy: actor.name,
      expiresAt,
    });
    recordEvent(tx, actor, {
      type: 'api-token-created',
      environment: type === 'admin' ? null : environment,
      project: projects.length === 1 && projects[0] !== '*' ? projects[0] : null,
      data: { id: token.id, tokenName, type, environment, projects, expiresAt },
    });
    return describeApiToken(token, secret);
  });
}

export async function listApiTokensFor(ctx: AppContext, identity: Identity) {
  const kinds = (Object.keys(READ) as TokenKind[]).filter((k) => can(identity, READ[k]));
  const tokens = await listApiTokens(ctx.db, kinds);
  return { tokens: tokens.map((t) => describeApiToken(t)) };
}

/** By its secret, or by the `id` shown in the list (the secret itself is only shown once). */
export async function removeApiToken(
  ctx: AppContext,
  identity: Identity,
  actor: Actor,
  ref: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const id = /^\d+$/.test(ref) ? Number(ref) : undefined;
    // Ids are int4: a number beyond names no token (and the database would refuse to compare it).
    const token =
      id === undefined
        ? await findApiToken(tx, { secretHash: hashSecret(ref) }, { lock: 'exclusive' })
        : id <= INT4_MAX
          ? await findApiToken(tx, { id }, { lock: 'exclusive' })
          : null;
    if (!token) throw new NotFoundError('No API token matches that secret or id.');
    assertPermission(identity, DELETE[token.type]);
    await deleteApiToken(tx, token.id);
    recordEvent(tx, actor, {
      type: 'api-token-deleted',
      environment: token.type === 'admin' ? null : token.environment,
      data: {
        id: token.id,
        tokenName: token.tokenName,
        type: token.type,
        environment: token.environment,
        projects: token.projects,
      },
    });
  });
}

/** Parses `project:environment.secret`, the form of INIT_*_API_TOKENS. */
function scopeFromSecret(secret: string, type: TokenKind): TokenScope {
  const match = /^([^:]+):([^.]+)\.(.+)$/.exec(secret);
  if (!match) {
    throw new Error(
      `The start-up token "${secret.slice(0, 12)}…" is not of the form <project>:<environment>.<secret>.`,
    );
  }
  const [, project, environment] = match as unknown as [string, string, string];
  if (type === 'admin' && (project !== '*' || environment !== '*')) {
    throw new Error(
      'INIT_ADMIN_API_TOKENS entries must start with "*:*." (an admin token covers everything).',
    );
  }
  return { type, environment, projects: [project] };
}

/** Creates the tokens named in INIT_*_API_TOKENS that do not exist yet. */
export async function createInitialTokens(ctx: AppContext, actor: Actor): Promise<void> {
  const wanted: [TokenKind, string[]][] = [
    ['admin', ctx.config.initTokens.admin],
    ['client', ctx.config.initTokens.client],
    ['frontend', ctx.config.initTokens.frontend],
  ];
  // A restart finds them all made already: one query, no transaction.
  const existing = await existingApiTokens(
    ctx.db,
    wanted.flatMap(([, secrets]) => secrets.map(hashSecret)),
  );
  for (const [type, secrets] of wanted) {
    for (const secret of secrets.filter((s) => !existing.has(hashSecret(s)))) {
      const scope = scopeFromSecret(secret, type);
      await ctx.db.transaction(async (tx) => {
        // Replicas starting together with the same tokens: one makes each, the others then find it.
        await tx.query('SELECT pg_advisory_xact_lock(4242003)');
        const hash = hashSecret(secret);
        if (await apiTokenExists(tx, hash)) return;
        try {
          await checkScope(tx, scope);
        } catch (error) {
          throw new Error(
            `The start-up ${type} token "${secret.slice(0, secret.indexOf('.') + 1)}…" is invalid: ${(error as Error).message}`,
          );
        }
        const token = await insertApiToken(tx, {
          secretHash: hash,
          secretPrefix: secret.slice(0, secret.indexOf('.') + 1),
          tokenName: type,
          type,
          environment: scope.environment,
          projects: scope.projects,
          alias: null,
          createdBy: actor.name,
          expiresAt: null,
        });
        recordEvent(tx, actor, {
          type: 'api-token-created',
          data: {
            id: token.id,
            tokenName: type,
            type,
            environment: scope.environment,
            projects: scope.projects,
          },
        });
      });
    }
  }
}
