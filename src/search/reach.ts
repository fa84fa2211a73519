import type { FeatureStrategy } from '../features/strategies/queries.js';

/**
 * What a strategy lets in, in the few numbers a list can state ("25 % rollout", "3 users") without
 * sending the strategy: the rollout of the rollout strategies, the number of user ids of
 * `userWithId`, and how many constraints and segments narrow it further.
 */
export function reachOf(s: FeatureStrategy) {
  const percent =
    s.name === 'flexibleRollout'
      ? s.parameters.rollout
      : s.name.startsWith('gradualRollout')
        ? s.parameters.percentage
        : undefined;
  const rollout = percent === undefined ? Number.NaN : Number(percent);
  const userIds = s.name === 'userWithId' ? (s.parameters.userIds ?? '') : '';
  return {
    name: s.name,
    ...(Number.isFinite(rollout) ? { rollout: Math.min(100, Math.max(0, rollout)) } : {}),
    ...(s.name === 'userWithId' ? { users: userIds.split(',').filter((id) => id.trim() !== '').length } : {}),
    constraints: s.constraints.length,
    segments: s.segments.length,
  };
}

/** The strategies an environment serves to SDKs (disabled ones are not sent), each as its reach. */
export function enabledStrategiesIn(strategies: readonly FeatureStrategy[], environment: string) {
  return strategies.filter((s) => s.environment === environment && !s.disabled).map(reachOf);
}
