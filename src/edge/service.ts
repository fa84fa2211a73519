import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { registerInstances } from '../applications/service.js';
import { actorOf, type TokenIdentity } from '../http/identity.js';
import type { MetricsBuffer } from '../metrics/buffer.js';
import { resolveApiTokens } from '../tokens/credentials.js';
import type { BulkMetricsBody, ValidatedTokens } from './schemas.js';

/**
 * Which of the tokens an Edge was given are client or frontend tokens that work here, with what
 * they may see. Admin tokens are never confirmed: an Edge serves SDKs, and this operation answers
 * anyone, so it must not tell whether an admin secret is right.
 */
export async function validateEdgeTokens(
  ctx: AppContext,
  secrets: string[],
): Promise<Static<typeof ValidatedTokens>> {
  const tokens: Static<typeof ValidatedTokens>['tokens'] = [];
  const resolved = await resolveApiTokens(ctx.db, ctx.identityCache, [...new Set(secrets)]);
  for (const [secret, token] of resolved) {
    if (!token || token.tokenType === 'admin') continue;
    tokens.push({
      token: secret,
      type: token.tokenType,
      projects: token.projects,
      environment: token.environment,
    });
  }
  return { tokens };
}

function dateOf(value: string | number | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(value);
}

/**
 * What an Edge collected from the SDKs behind it: their registrations, written now, and their
 * counts, summed with every SDK's in the metrics buffer. As for an SDK, the environment is the
 * token's: entries of other environments are left out (an Edge sends each environment's with a
 * token of that environment).
 */
export async function recordBulkMetrics(
  ctx: AppContext,
  buffer: MetricsBuffer,
  token: TokenIdentity,
  clientIp: string,
  body: Static<typeof BulkMetricsBody>,
): Promise<void> {
  const environment = token.environment;
  const registrations = body.applications
    .filter((a) => a.environment === environment)
    .map((a) => ({
      appName: a.appName,
      instanceId: a.instanceId,
      environment,
      sdkVersion: a.sdkVersion,
      sdkType: a.sdkType ?? 'backend',
      strategies: a.strategies,
      startedAt: dateOf(a.started),
      intervalMs: a.interval,
      clientIp,
    }));
  if (registrations.length > 0) await registerInstances(ctx, actorOf(token), registrations);
  const now = new Date();
  for (const m of body.metrics) {
    if (m.environment !== environment) continue;
    buffer.add({
      appName: m.appName,
      environment,
      start: dateOf(m.timestamp) ?? now,
      toggles: { [m.featureName]: { yes: m.yes ?? 0, no: m.no ?? 0, variants: m.variants } },
    });
  }
}
