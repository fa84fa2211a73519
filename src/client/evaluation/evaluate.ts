import { constraintHolds } from './constraints.js';
import { strategyHolds } from './strategies.js';
import type { ClientFeature, Constraint, Context, Segment, StrategyDefinition, Variant } from './types.js';
import { DISABLED_VARIANT } from './types.js';
import { pickVariant } from './variants.js';

/** What an evaluation needs besides the feature itself. */
export interface FlagSet {
  feature(name: string): ClientFeature | undefined;
  segment(id: number): Segment | undefined;
}

export interface Evaluation {
  enabled: boolean;
  variant: Variant;
}

/** A strategy's constraints, then those of its segments; a missing segment never matches. */
function constraintsHold(strategy: StrategyDefinition, context: Context, flags: FlagSet): boolean {
  const own: (Constraint | undefined)[] = strategy.constraints ?? [];
  const fromSegments = (strategy.segments ?? []).flatMap((id) => {
    const segment = flags.segment(id);
    return segment ? segment.constraints : [undefined];
  });
  return [...own, ...fromSegments].every((c) => c !== undefined && constraintHolds(c, context));
}

interface StrategyResult {
  enabled: boolean;
  variant?: Variant;
}

function firstMatchingStrategy(feature: ClientFeature, context: Context, flags: FlagSet): StrategyResult {
  const strategies = feature.strategies ?? [];
  if (strategies.length === 0) return { enabled: true };
  for (const strategy of strategies) {
    const parameters = strategy.parameters ?? {};
    if (!constraintsHold(strategy, context, flags)) continue;
    if (!strategyHolds(strategy.name, parameters, context, feature.name)) continue;
    const variants = strategy.variants ?? [];
    if (variants.length === 0) return { enabled: true };
    const stickiness = variants[0]!.stickiness || (parameters.stickiness as string | undefined);
    const picked = pickVariant(variants, String(parameters.groupId ?? ''), stickiness, context);
    return picked
      ? { enabled: true, variant: { name: picked.name, enabled: true, payload: picked.payload } }
      : { enabled: true };
  }
  return { enabled: false };
}

/** Parents are one level deep: a parent that itself has parents never satisfies. */
function parentsSatisfied(feature: ClientFeature, context: Context, flags: FlagSet): boolean {
  return (feature.dependencies ?? []).every((dependency) => {
    const parent = flags.feature(dependency.feature);
    if (!parent || parent.dependencies?.length) return false;
    const parentResult = evaluate(parent, context, flags);
    if (dependency.enabled === false) return !parentResult.enabled;
    if (dependency.variants?.length) {
      return parentResult.enabled && dependency.variants.includes(parentResult.variant.name);
    }
    return parentResult.enabled;
  });
}

/**
 * Evaluates a feature the way the Unleash SDKs do: off unless enabled in the environment and its
 * parents are satisfied; on when any strategy matches (constraints and segments ANDed, strategies
 * ORed); the variant of the first matching strategy that has variants, else of the feature.
 */
export function evaluate(feature: ClientFeature, context: Context, flags: FlagSet): Evaluation {
  if (!feature.enabled || !parentsSatisfied(feature, context, flags)) {
    return { enabled: false, variant: DISABLED_VARIANT };
  }
  const result = firstMatchingStrategy(feature, context, flags);
  if (!result.enabled) return { enabled: false, variant: DISABLED_VARIANT };
  if (result.variant) return { enabled: true, variant: result.variant };
  const variants = feature.variants ?? [];
  const picked = variants.length
    ? pickVariant(variants, feature.name, variants[0]!.stickiness, context)
    : null;
  return {
    enabled: true,
    variant: picked ? { name: picked.name, enabled: true, payload: picked.payload } : DISABLED_VARIANT,
  };
}
