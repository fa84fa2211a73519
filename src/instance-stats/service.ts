import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AppContext } from '../app-context.js';
import { PACKAGE_JSON } from '../db/assets.js';
import { isOidcEnabled, readInstanceId } from '../settings/service.js';
import { readCounts } from './store.js';

let version: string | undefined;

/** Flagpole's version, from its package manifest. */
export function flagpoleVersion(): string {
  version ??= (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;
  return version;
}

/** Unleash's `instanceAdminStatsSchema`, from one read of the database. */
export async function readInstanceStats(ctx: AppContext) {
  const [instanceId, counts, oidc] = await Promise.all([
    readInstanceId(ctx.db),
    readCounts(ctx.db),
    isOidcEnabled(ctx.db),
  ]);
  const stats = {
    instanceId,
    timestamp: new Date().toISOString(),
    versionOSS: flagpoleVersion(),
    versionEnterprise: '',
    users: counts.users,
    previousDayMetricsBucketsCount: counts.previousDayMetricsBucketsCount,
    activeUsers: counts.activeUsers,
    // Flagpole has no licence and so no licensed seats.
    licensedUsers: 0,
    productionChanges: counts.productionChanges,
    featureToggles: counts.featureToggles,
    projects: counts.projects,
    contextFields: counts.contextFields,
    roles: counts.roles,
    groups: counts.groups,
    environments: counts.environments,
    segments: counts.segments,
    strategies: counts.strategies,
    SAMLenabled: false,
    OIDCenabled: oidc,
    clientApps: (['7d', '30d', 'allTime'] as const).map((range) => ({
      range,
      count: counts.clientApps[range],
    })),
    featureExports: counts.featureExports,
    featureImports: counts.featureImports,
    apiTokens: counts.apiTokens,
    maxEnvironmentStrategies: counts.maxEnvironmentStrategies,
    maxConstraints: counts.maxConstraints,
    maxConstraintValues: counts.maxConstraintValues,
    // Release plans and Edge are not part of Flagpole.
    releaseTemplates: 0,
    releasePlans: 0,
    edgeInstanceUsage: {},
    readOnlyUsers: counts.readOnlyUsers,
  };
  // Unleash's checksum over the counts that matter most, so a report can be checked as sent.
  const sum = createHash('sha256')
    .update(
      `${stats.instanceId}${stats.users}${stats.featureToggles}${stats.projects}${stats.roles}${stats.groups}${stats.environments}${stats.segments}`,
    )
    .digest('hex');
  return { ...stats, sum };
}

function csvCell(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `"${text.replace(/"/g, '""')}"`;
}

/** The same statistics as CSV: a line of names, a line of values (objects as JSON). */
export function statsAsCsv(stats: Record<string, unknown>): string {
  const keys = Object.keys(stats);
  return `${keys.map(csvCell).join(',')}\n${keys.map((k) => csvCell(stats[k])).join(',')}`;
}
