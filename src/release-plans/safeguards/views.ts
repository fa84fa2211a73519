import type { Queryable } from '../../db/database.js';
import { type Safeguard, safeguardOfPlan, safeguardsOfFeature } from './store.js';

/** A safeguard as Unleash answers it (`releasePlanSafeguardSchema`, `featureEnvironmentSafeguardSchema`). */
export function describeSafeguard(s: Safeguard, project: string) {
  return {
    id: s.id,
    action: s.releasePlanId
      ? { type: 'pauseReleasePlanProgressions' as const, id: s.releasePlanId }
      : {
          type: 'disableFeatureEnvironment' as const,
          featureName: s.featureName,
          environment: s.environment,
          project,
        },
    triggerCondition: { operator: s.operator, threshold: s.threshold },
    impactMetric: {
      id: s.configId,
      metricName: s.metricName,
      timeRange: s.timeRange,
      aggregationMode: s.aggregationMode,
      labelSelectors: s.labelSelectors,
      source: s.source,
    },
    triggeredAt: s.triggeredAt ? s.triggeredAt.toISOString() : null,
  };
}

/** The plan's safeguards: one at most. */
export async function planSafeguards(db: Queryable, planId: string, project: string) {
  const s = await safeguardOfPlan(db, planId);
  return s ? [describeSafeguard(s, project)] : [];
}

/** The feature's safeguards, described: each environment's own by its name, each plan's by the plan's id. */
export async function featureSafeguards(db: Queryable, feature: string, project: string) {
  const environments = new Map<string, unknown[]>();
  const plans = new Map<string, unknown[]>();
  for (const s of await safeguardsOfFeature(db, feature)) {
    const [owners, key] = s.releasePlanId ? [plans, s.releasePlanId] : [environments, s.environment];
    owners.set(key, [...(owners.get(key) ?? []), describeSafeguard(s, project)]);
  }
  return { environments, plans };
}
