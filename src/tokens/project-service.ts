import type { AppContext } from '../app-context.js';
import { NoAccessError, NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { getProject } from '../projects/service.js';
import { describeApiToken, futureExpiry, parseType, tokenNameOf } from './scope.js';
import { discardApiToken, findTokenByRef, issueApiToken } from './service.js';
import { listApiTokensOfProject } from './store.js';

export interface ProjectApiTokenInput {
  tokenName?: string;
  username?: string;
  type: string;
  environment?: string;
  expiresAt?: string;
}

/** The tokens that name the project (tokens of every project are listed with the others). */
export async function readProjectApiTokens(ctx: AppContext, projectId: string) {
  await getProject(ctx.db, projectId);
  const tokens = await listApiTokensOfProject(ctx.db, projectId);
  return { tokens: tokens.map((t) => describeApiToken(t)) };
}

/** A client or frontend token for this one project; the permission was checked for the project. */
export async function createProjectApiToken(
  ctx: AppContext,
  actor: Actor,
  projectId: string,
  input: ProjectApiTokenInput,
) {
  const tokenName = tokenNameOf(input);
  const type = parseType(input.type);
  if (type === 'admin') {
    throw new ValidationError('A project token is a client (backend) or frontend token, not an admin one.', [
      { path: 'type', message: 'Use "client", "backend" or "frontend".' },
    ]);
  }
  const expiresAt = input.expiresAt ? futureExpiry(input.expiresAt) : null;
  return ctx.db.transaction(async (tx) => {
    await getProject(tx, projectId, { lock: 'share' });
    return issueApiToken(tx, actor, {
      tokenName,
      type,
      environment: input.environment ?? 'development',
      projects: [projectId],
      expiresAt,
      alias: null,
    });
  });
}

/**
 * Deletes a token of the project, by secret or id. A token that also covers other projects is
 * not the project's alone to delete: that is done among all API tokens.
 */
export async function removeProjectApiToken(
  ctx: AppContext,
  actor: Actor,
  projectId: string,
  ref: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, projectId);
    const token = await findTokenByRef(tx, ref);
    if (!token?.projects.includes(projectId)) {
      throw new NotFoundError(`No API token of the project "${projectId}" matches that secret or id.`);
    }
    if (token.projects.length > 1) {
      throw new NoAccessError(
        `The token "${token.tokenName}" also covers ${token.projects.filter((p) => p !== projectId).join(', ')}: delete it under API tokens (DELETE /api/admin/api-tokens/${token.id}).`,
      );
    }
    await discardApiToken(tx, actor, token);
  });
}
