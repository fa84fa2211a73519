import type { Queryable } from '../db/database.js';
import { existingEnvironments } from '../environments/queries.js';
import { ValidationError } from '../http/errors.js';
import type { TokenKind } from '../http/identity.js';
import { existingProjectIds } from '../projects/queries.js';
import type { ApiToken } from './store.js';

// What an API token may be: its kind, the projects and environment it reaches, its name and expiry.

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

export function projectPart(projects: string[]): string {
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
