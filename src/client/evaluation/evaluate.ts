import { constraintHolds } from './constraints.js';
import { isKnownStrategy, strategyHolds } from './strategies.js';
import type {
  ClientFeature,
  Constraint,
  Context,
  Segment,
  StrategyDefinition,
  Variant,
  VariantDefinition,
} from './types.js';
import { DISABLED_VARIANT } from './types.js';
import { type Pick, pickVariant } from './variants.js';

/** What an evaluation needs besides the feature itself. */
export interface FlagSet {
  feature(name: string): ClientFeature | undefined;
  segment(id: number): Segment | undefined;
}

/**
 * Why a feature came out as it did: `off` in the environment; `unmatched` when on there but no
 * strategy let the context in (or a parent did not); `matched` when one did (the variant, if any,
 * named by an override); `split` when the variant came from the weights.
 */
export type Outcome = 'off' | 'unmatched' | 'matched' | 'split';

export interface Evaluation {
  enabled: boolean;
  variant: Variant;
  outcome: Outcome;
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

/** Whether a strategy lets the context in. A disabled one never does (SDKs are not even sent it). */
function strategyMatches(
  strategy: StrategyDefinition,
  featureName: string,
  context: Context,
  flags: FlagSet,
): boolean {
  if (strategy.disabled) return false;
  return (
    constraintsHold(strategy, context, flags) &&
    strategyHolds(strategy.name, strategy.parameters ?? {}, context, featureName)
  );
}

/** The variant a strategy with variants gives the context; null when its weights add up to nothing. */
function strategyVariant(strategy: StrategyDefinition, context: Context): Pick | null {
  const variants = strategy.variants ?? [];
  const parameters = strategy.parameters ?? {};
  const stickiness = variants[0]?.stickiness || (parameters.stickiness as string | undefined);
  return pickVariant(variants, String(parameters.groupId ?? ''), stickiness, context);
}

function variantFrom(pick: Pick): Variant {
  return { name: pick.variant.name, enabled: true, payload: pick.variant.payload };
}

/** Which strategy decided: `matched` false when none let the context in; no strategy at all lets everyone in. */
interface Match {
  matched: boolean;
  strategy?: StrategyDefinition;
}

function firstMatch(feature: ClientFeature, context: Context, flags: FlagSet): Match {
  const strategies = feature.strategies ?? [];
  if (strategies.length === 0) return { matched: true };
  const strategy = strategies.find((s) => strategyMatches(s, feature.name, context, flags));
  return strategy ? { matched: true, strategy } : { matched: false };
}

/**
 * The variants the feature's variant comes from once the deciding strategy is known: that
 * strategy's when it has some, else the feature's.
 */
function variantSource(feature: ClientFeature, match: Match): VariantDefinition[] {
  const own = match.strategy?.variants ?? [];
  return own.length > 0 ? own : (feature.variants ?? []);
}

/** A feature that is on, with its variant: the deciding strategy's, else one of the feature's. */
function onWithVariant(feature: ClientFeature, match: Match, context: Context): Evaluation {
  const variants = feature.variants ?? [];
  const picked = match.strategy?.variants?.length
    ? strategyVariant(match.strategy, context)
    : variants.length
      ? pickVariant(variants, feature.name, variants[0]!.stickiness, context)
      : null;
  if (!picked) return { enabled: true, variant: DISABLED_VARIANT, outcome: 'matched' };
  return { enabled: true, variant: variantFrom(picked), outcome: picked.split ? 'split' : 'matched' };
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
  if (!feature.enabled) return { enabled: false, variant: DISABLED_VARIANT, outcome: 'off' };
  if (!parentsSatisfied(feature, context, flags)) {
    return { enabled: false, variant: DISABLED_VARIANT, outcome: 'unmatched' };
  }
  const match = firstMatch(feature, context, flags);
  if (!match.matched) return { enabled: false, variant: DISABLED_VARIANT, outcome: 'unmatched' };
  return onWithVariant(feature, match, context);
}

export interface ConstraintOutcome {
  constraint: Constraint;
  result: boolean;
}

export interface SegmentOutcome {
  id: number;
  /** Undefined when no segment has the id: then it never matches. */
  segment: Segment | undefined;
  result: boolean;
  constraints: ConstraintOutcome[];
}

export interface StrategyOutcome {
  strategy: StrategyDefinition;
  /**
   * `complete`: evaluated here. `incomplete`: a strategy type this server cannot evaluate (custom
   * strategies are the SDK's code), so it is on at best `unknown`. `unevaluated`: disabled.
   */
  status: 'complete' | 'incomplete' | 'unevaluated';
  enabled: boolean | 'unknown';
  constraints: ConstraintOutcome[];
  segments: SegmentOutcome[];
  /** For a strategy with variants, the one the context would get (null: weights add up to nothing). */
  variant?: Variant | null;
}

/** An evaluation with its reasons: every strategy, constraint and segment, and the parents. */
export interface Explanation extends Evaluation {
  /** Whether the feature is on in the environment at all. */
  environmentEnabled: boolean;
  parentsSatisfied: boolean;
  /** True when a strategy matched (or there are none and the environment is on); `unknown` when one might. */
  strategiesResult: boolean | 'unknown';
  strategies: StrategyOutcome[];
  /** The variants the variant comes from. */
  variants: VariantDefinition[];
}

function judgeConstraints(constraints: readonly Constraint[], context: Context): ConstraintOutcome[] {
  return constraints.map((constraint) => ({ constraint, result: constraintHolds(constraint, context) }));
}

/** Every part of a strategy evaluated (no short cut), agreeing with `strategyMatches`. */
function judgeStrategy(
  strategy: StrategyDefinition,
  featureName: string,
  context: Context,
  flags: FlagSet,
): StrategyOutcome {
  const constraints = judgeConstraints(strategy.constraints ?? [], context);
  const segments = (strategy.segments ?? []).map((id): SegmentOutcome => {
    const segment = flags.segment(id);
    const outcomes = judgeConstraints(segment?.constraints ?? [], context);
    return { id, segment, constraints: outcomes, result: !!segment && outcomes.every((o) => o.result) };
  });
  const gates = constraints.every((o) => o.result) && segments.every((o) => o.result);
  const picked = strategy.variants?.length ? strategyVariant(strategy, context) : undefined;
  const variant = picked === undefined ? {} : { variant: picked && variantFrom(picked) };
  const outcome = { strategy, constraints, segments, ...variant };
  if (strategy.disabled) return { ...outcome, status: 'unevaluated', enabled: 'unknown' };
  if (!isKnownStrategy(strategy.name)) {
    return { ...outcome, status: 'incomplete', enabled: gates ? 'unknown' : false };
  }
  const enabled = gates && strategyHolds(strategy.name, strategy.parameters ?? {}, context, featureName);
  return { ...outcome, status: 'complete', enabled };
}

/**
 * The evaluation of `evaluate`, explained: the same decision (on only when the environment is on,
 * the parents are satisfied and the first matching strategy is found), with every strategy judged
 * in full even when the environment is off, as a person trying a context out wants to see.
 */
export function explain(feature: ClientFeature, context: Context, flags: FlagSet): Explanation {
  const strategies = (feature.strategies ?? []).map((s) => judgeStrategy(s, feature.name, context, flags));
  const deciding = strategies.find((o) => o.enabled === true);
  const match: Match =
    strategies.length === 0 ? { matched: true } : { matched: !!deciding, strategy: deciding?.strategy };
  const strategiesResult =
    strategies.length === 0
      ? feature.enabled
      : deciding
        ? true
        : strategies.some((o) => o.enabled === 'unknown')
          ? 'unknown'
          : false;
  const satisfied = parentsSatisfied(feature, context, flags);
  const enabled = feature.enabled && satisfied && match.matched;
  const outcome: Outcome = !feature.enabled ? 'off' : 'unmatched';
  return {
    ...(enabled ? onWithVariant(feature, match, context) : { enabled, variant: DISABLED_VARIANT, outcome }),
    environmentEnabled: feature.enabled,
    parentsSatisfied: satisfied,
    strategiesResult,
    strategies,
    variants: variantSource(feature, match),
  };
}
