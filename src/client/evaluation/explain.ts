import { constraintCheck } from './constraints.js';
import {
  type CompiledStrategy,
  compiledFeature,
  type Evaluation,
  type FlagSet,
  segmentHolds,
} from './evaluate.js';
import type {
  ClientFeature,
  Constraint,
  Context,
  Segment,
  StrategyDefinition,
  Variant,
  VariantDefinition,
} from './types.js';

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

/** Every part of a strategy judged (no short cut), agreeing with the compiled evaluation. */
function judgeStrategy(s: CompiledStrategy, context: Context, flags: FlagSet): StrategyOutcome {
  const strategy = s.source;
  const constraints = (strategy.constraints ?? []).map((constraint, i) => ({
    constraint,
    result: s.constraints[i]!(context),
  }));
  const segments = (strategy.segments ?? []).map((id): SegmentOutcome => {
    const segment = flags.segment(id);
    const outcomes = (segment?.constraints ?? []).map((constraint) => ({
      constraint,
      result: constraintCheck(constraint)(context),
    }));
    return { id, segment, constraints: outcomes, result: segmentHolds(segment, context) };
  });
  const gates = constraints.every((o) => o.result) && segments.every((o) => o.result);
  const variant = s.variants ? { variant: s.variants(context)?.variant ?? null } : {};
  const outcome = { strategy, constraints, segments, ...variant };
  if (strategy.disabled) return { ...outcome, status: 'unevaluated', enabled: 'unknown' };
  if (!s.known) return { ...outcome, status: 'incomplete', enabled: gates ? 'unknown' : false };
  return { ...outcome, status: 'complete', enabled: gates && s.rule(context) };
}

/**
 * The evaluation of `evaluate`, explained: the same decision (on only when the environment is on,
 * the parents are satisfied and the first matching strategy is found), with every strategy judged
 * in full even when the environment is off, as a person trying a context out wants to see.
 */
export function explain(feature: ClientFeature, context: Context, flags: FlagSet): Explanation {
  const compiled = compiledFeature(feature);
  const judged = compiled.strategies.map((s) => ({ s, outcome: judgeStrategy(s, context, flags) }));
  const strategies = judged.map((j) => j.outcome);
  const deciding = judged.find((j) => j.outcome.enabled === true)?.s;
  const matched = judged.length === 0 || deciding !== undefined;
  const strategiesResult =
    judged.length === 0
      ? feature.enabled
      : deciding
        ? true
        : strategies.some((o) => o.enabled === 'unknown')
          ? 'unknown'
          : false;
  const satisfied = compiled.parentsSatisfied(context, flags);
  const enabled = feature.enabled && satisfied && matched;
  const evaluation = enabled
    ? compiled.onWithVariant(deciding, context)
    : feature.enabled
      ? compiled.unmatched
      : compiled.off;
  const variants = deciding?.source.variants?.length ? deciding.source.variants : (feature.variants ?? []);
  return {
    ...evaluation,
    environmentEnabled: feature.enabled,
    parentsSatisfied: satisfied,
    strategiesResult,
    strategies,
    variants,
  };
}
