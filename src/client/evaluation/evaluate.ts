import { type Check, constraintCheck } from './constraints.js';
import { constraintInputs, type Input, ruleInputs, variantInputs } from './inputs.js';
import { compileRule, isKnownStrategy, type Rule } from './strategies.js';
import type {
  ClientFeature,
  Context,
  Segment,
  StrategyDefinition,
  Variant,
  VariantDefinition,
} from './types.js';
import { DISABLED_VARIANT } from './types.js';
import { compileVariants } from './variants.js';

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

/** What an answer writes for an evaluation (its JSON, and a 64-bit hash of it in two halves). */
export interface Written {
  json: string;
  h1: number;
  h2: number;
}

/**
 * Made once per compiled feature and shared by every request. Only `written` changes: each kind
 * of answer writes its form of the evaluation there the first time it needs it.
 */
export interface Evaluation {
  readonly enabled: boolean;
  readonly variant: Variant;
  readonly outcome: Outcome;
  readonly written: { frontend?: Written; ofrep?: Written };
}

type Picker = (context: Context) => Evaluation | null;

function onWith(variant: VariantDefinition, split: boolean): Evaluation {
  const picked: Variant = { name: variant.name, enabled: true, payload: variant.payload };
  return { enabled: true, variant: picked, outcome: split ? 'split' : 'matched', written: {} };
}

/** A strategy with its constraints, rule and variants compiled. */
export interface CompiledStrategy {
  source: StrategyDefinition;
  known: boolean;
  constraints: Check[];
  rule: Rule;
  /** Null without variants; a pick is null when their weights add up to nothing. */
  variants: Picker | null;
}

/** A strategy's variants are sticky to the first variant's stickiness, else the strategy's. */
function strategyStickiness(s: StrategyDefinition): string | undefined {
  return s.variants?.[0]?.stickiness || (s.parameters?.stickiness as string | undefined);
}

function compileStrategy(s: StrategyDefinition, featureName: string): CompiledStrategy {
  const parameters = s.parameters ?? {};
  const variants = s.variants ?? [];
  const stickiness = strategyStickiness(s);
  return {
    source: s,
    known: isKnownStrategy(s.name),
    constraints: (s.constraints ?? []).map(constraintCheck),
    rule: compileRule(s.name, parameters, featureName),
    variants:
      variants.length > 0
        ? (compileVariants(variants, String(parameters.groupId ?? ''), stickiness, onWith) ?? (() => null))
        : null,
  };
}

const segmentChecks = new WeakMap<Segment, Check[]>();

/** A segment's constraints compiled, once per segment definition; a missing segment never matches. */
export function segmentHolds(segment: Segment | undefined, context: Context): boolean {
  if (!segment) return false;
  let checks = segmentChecks.get(segment);
  if (!checks) {
    checks = segment.constraints.map(constraintCheck);
    segmentChecks.set(segment, checks);
  }
  for (const check of checks) if (!check(context)) return false;
  return true;
}

/** A strategy's constraints, then those of its segments, then its own rule. */
export function gatesHold(s: CompiledStrategy, context: Context, flags: FlagSet): boolean {
  for (const check of s.constraints) if (!check(context)) return false;
  for (const id of s.source.segments ?? []) if (!segmentHolds(flags.segment(id), context)) return false;
  return true;
}

/**
 * A feature compiled once per served definition (a changed flag is a new definition): the
 * evaluations it can give are made here, so evaluating allocates nothing.
 */
export class CompiledFeature {
  readonly off: Evaluation = { enabled: false, variant: DISABLED_VARIANT, outcome: 'off', written: {} };
  readonly unmatched: Evaluation = {
    enabled: false,
    variant: DISABLED_VARIANT,
    outcome: 'unmatched',
    written: {},
  };
  /** On, with no variant to give. */
  readonly plain: Evaluation = { enabled: true, variant: DISABLED_VARIANT, outcome: 'matched', written: {} };
  readonly strategies: CompiledStrategy[];
  private readonly live: CompiledStrategy[];
  private readonly variants: Picker | null;
  private inputList?: Input[];

  constructor(readonly source: ClientFeature) {
    this.strategies = (source.strategies ?? []).map((s) => compileStrategy(s, source.name));
    this.live = this.strategies.filter((s) => !s.source.disabled);
    const variants = source.variants ?? [];
    this.variants = variants.length
      ? compileVariants(variants, source.name, variants[0]!.stickiness, onWith)
      : null;
  }

  /** The first strategy that lets the context in (null: none); with no strategy at all, everyone is in. */
  firstMatch(context: Context, flags: FlagSet): CompiledStrategy | null | undefined {
    if (this.strategies.length === 0) return undefined;
    for (const s of this.live) if (gatesHold(s, context, flags) && s.rule(context)) return s;
    return null;
  }

  /** On, with the deciding strategy's variant when it has variants, else one of the feature's. */
  onWithVariant(deciding: CompiledStrategy | undefined, context: Context): Evaluation {
    const picker = deciding?.variants ?? this.variants;
    return picker?.(context) ?? this.plain;
  }

  /** Parents are one level deep: a parent that itself has parents never satisfies. */
  parentsSatisfied(context: Context, flags: FlagSet): boolean {
    for (const dependency of this.source.dependencies ?? []) {
      const parent = flags.feature(dependency.feature);
      if (!parent || parent.dependencies?.length) return false;
      const result = evaluate(parent, context, flags);
      const satisfied =
        dependency.enabled === false
          ? !result.enabled
          : dependency.variants?.length
            ? result.enabled && dependency.variants.includes(result.variant.name)
            : result.enabled;
      if (!satisfied) return false;
    }
    return true;
  }

  /**
   * What of a context the evaluation reads, besides its segments' constraints and its parents
   * (named in `segmentIds` and `parentNames`): none when it is off.
   */
  get inputs(): Input[] {
    if (!this.inputList) {
      const source = this.source;
      const variants = source.variants ?? [];
      this.inputList = source.enabled
        ? [
            ...this.live.flatMap((s) => [
              ...(s.source.constraints ?? []).flatMap(constraintInputs),
              ...ruleInputs(s.source),
              ...variantInputs(s.source.variants ?? [], strategyStickiness(s.source)),
            ]),
            ...variantInputs(variants, variants[0]?.stickiness),
          ]
        : [];
    }
    return this.inputList;
  }

  get segmentIds(): number[] {
    return this.source.enabled ? this.live.flatMap((s) => s.source.segments ?? []) : [];
  }

  get parentNames(): string[] {
    return this.source.enabled ? (this.source.dependencies ?? []).map((d) => d.feature) : [];
  }

  evaluate(context: Context, flags: FlagSet): Evaluation {
    if (!this.source.enabled) return this.off;
    if (!this.parentsSatisfied(context, flags)) return this.unmatched;
    const deciding = this.firstMatch(context, flags);
    if (deciding === null) return this.unmatched;
    return this.onWithVariant(deciding, context);
  }
}

const compiled = new WeakMap<ClientFeature, CompiledFeature>();

export function compiledFeature(feature: ClientFeature): CompiledFeature {
  let c = compiled.get(feature);
  if (!c) {
    c = new CompiledFeature(feature);
    compiled.set(feature, c);
  }
  return c;
}

/**
 * Evaluates a feature the way the Unleash SDKs do: off unless enabled in the environment and its
 * parents are satisfied; on when any strategy matches (constraints and segments ANDed, strategies
 * ORed); the variant of the first matching strategy that has variants, else of the feature.
 */
export function evaluate(feature: ClientFeature, context: Context, flags: FlagSet): Evaluation {
  return compiledFeature(feature).evaluate(context, flags);
}
