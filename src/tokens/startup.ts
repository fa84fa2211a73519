import type { AppContext } from '../app-context.js';
import { takeAdvisoryLock } from '../db/advisory-locks.js';
import { recordEvent } from '../events/service.js';
import type { Actor, TokenKind } from '../http/identity.js';
import { hashSecret } from '../secrets.js';
import { checkScope, type TokenScope } from './scope.js';
import { apiTokenExists, existingApiTokens, insertApiToken } from './store.js';

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
        await takeAdvisoryLock(tx, 'startupTokens');
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
