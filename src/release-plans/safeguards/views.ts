import type { Queryable } from '../../db/database.js';
import { type Safeguard, safeguardOfEnvironment, safeguardOfPlan } from './store.js';

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

/** The flag environment's own safeguards: one at most. */
export async function environmentSafeguards(
  db: Queryable,
  feature: string,
  environment: string,
  project: string,
) {
  const s = await safeguardOfEnvironment(db, feature, environment);
  return s ? [describeSafeguard(s, project)] : [];
}
