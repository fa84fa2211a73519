import type { FlagSet } from '../client/evaluation/evaluate.js';
import { type Explanation, explain } from '../client/evaluation/explain.js';
import type { Constraint, Context, StrategyDefinition } from '../client/evaluation/types.js';
import { ValidationError } from '../http/errors.js';
import type { ProjectVisibility } from '../http/visibility.js';
import type { FeatureRecord } from '../read-model/queries.js';
import {
  eachCombination,
  evaluationContext,
  flatten,
  measureCombinations,
  type SentContext,
} from './contexts.js';
import { type FlagSource, featuresOf, flagsOf, formIn } from './flags.js';

/** At most this many evaluations (environments × features × contexts) in one advanced request. */
export const MAX_EVALUATIONS = 15_000;

/**
 * At most this many fields in all the contexts of one advanced request (contexts × fields): what
 * making them costs, whatever there is to evaluate. A few fields of many values, or many fields
 * of a few, pass; a thousand fields multiplied into thousands of contexts does not.
 */
export const MAX_CONTEXT_FIELDS = 100_000;

/**
 * At most this many characters of contexts in one advanced answer: each evaluation repeats its
 * context, so a long context evaluated for many features and environments makes a large answer.
 */
export const MAX_ANSWER_CONTEXT_CHARS = 10_000_000;

/** 400 naming each environment that does not exist. */
function assertEnvironments(model: FlagSource, environments: string[], path: (i: number) => string): void {
  const unknown = environments.flatMap((e, i) => (model.environment(e) ? [] : [{ e, i }]));
  if (unknown.length === 0) return;
  throw new ValidationError(
    `There is no environment named ${unknown.map((u) => `"${u.e}"`).join(', ')}: see GET /api/admin/environments.`,
    unknown.map((u) => ({ path: path(u.i), message: `Unknown environment "${u.e}".` })),
  );
}

function describeVariant(v: { name: string; enabled: boolean; payload?: { type: string; value: string } }) {
  return { name: v.name, enabled: v.enabled, ...(v.payload ? { payload: v.payload } : {}) };
}

/** The feature's variant as Unleash's playground words it. */
function featureVariant(e: Explanation) {
  if (!e.enabled) return { name: 'disabled', enabled: false, feature_enabled: false };
  if (!e.variant.enabled)
    return { ...describeVariant(e.variant), feature_enabled: true, featureEnabled: true };
  return { ...describeVariant(e.variant), feature_enabled: true };
}

const withResult = (o: { constraint: Constraint; result: boolean }) => ({
  ...o.constraint,
  result: o.result,
});

/** One feature evaluated in one environment for one context, with its reasons. */
function evaluated(
  model: FlagSource,
  f: FeatureRecord,
  environment: string,
  flags: FlagSet,
  context: Context,
) {
  const feature = formIn(f, environment);
  const e = explain(feature ?? { name: f.name, enabled: false }, context, flags);
  const edit = `/projects/${f.project}/features/${f.name}/strategies/edit?environmentId=${environment}&strategyId=`;
  return {
    name: f.name,
    projectId: f.project,
    isEnabled: e.enabled,
    isEnabledInCurrentEnvironment: e.environmentEnabled,
    hasUnsatisfiedDependency: !e.parentsSatisfied,
    variant: featureVariant(e),
    variants: e.variants,
    strategies: {
      result: e.strategiesResult,
      data: e.strategies.map((o) => {
        const s = o.strategy as StrategyDefinition & { id: string };
        return {
          name: s.name,
          id: s.id,
          ...(s.title ? { title: s.title } : {}),
          disabled: s.disabled ?? false,
          parameters: s.parameters ?? {},
          result: {
            enabled: o.enabled,
            evaluationStatus: o.status,
            ...(o.variant !== undefined
              ? { variant: o.variant && describeVariant(o.variant), variants: s.variants ?? [] }
              : {}),
          },
          constraints: o.constraints.map(withResult),
          segments: o.segments.map((seg) => ({
            id: seg.id,
            name: model.segment(seg.id)?.name ?? '',
            result: seg.result,
            constraints: seg.constraints.map(withResult),
          })),
          links: { edit: `${edit}${s.id}` },
        };
      }),
    },
  };
}

export interface PlaygroundInput {
  environment: string;
  projects?: string[] | '*';
  context: SentContext;
}

/** The chosen projects' features evaluated in one environment for one context, from memory. */
export function readPlayground(
  model: FlagSource,
  input: PlaygroundInput,
  visible: ProjectVisibility,
): string {
  assertEnvironments(model, [input.environment], () => 'environment');
  const flags = flagsOf(model, input.environment);
  // Made once: every feature is evaluated for the same context.
  const context = evaluationContext(flatten(input.context).flat);
  const features = featuresOf(model, input.projects, visible).map((f) =>
    evaluated(model, f, input.environment, flags, context),
  );
  return JSON.stringify({ input, features });
}

export interface AdvancedPlaygroundInput {
  environments: string[];
  projects?: string[] | '*';
  context: SentContext;
}

/** A count as a message says it: past what a number holds exactly, only its order of size. */
function counted(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : `more than ${Number.MAX_SAFE_INTEGER}`;
}

function tooCostly(message: string, limit: number, count: number): ValidationError {
  return new ValidationError(
    `${message}, more than the ${limit} allowed: send fewer comma-separated values, fields, environments or projects.`,
    [{ path: 'context', message: `At most ${limit}; this asks for ${counted(count)}.` }],
  );
}

/**
 * Refuses (400) an advanced request whose work is past a limit, from the counts alone, before a
 * context is made: the contexts' fields (MAX_CONTEXT_FIELDS), the evaluations (MAX_EVALUATIONS)
 * and the characters of contexts the answer repeats (MAX_ANSWER_CONTEXT_CHARS).
 */
function assertAffordable(
  combinations: { contexts: number; fields: number; chars: number },
  environments: number,
  features: number,
): void {
  const { contexts, fields, chars } = combinations;
  const contextFields = contexts * fields;
  if (contextFields > MAX_CONTEXT_FIELDS) {
    throw tooCostly(
      `The context makes ${counted(contexts)} combinations of ${fields} fields, ${counted(contextFields)} fields in all`,
      MAX_CONTEXT_FIELDS,
      contextFields,
    );
  }
  const evaluations = environments * features * contexts;
  if (evaluations > MAX_EVALUATIONS) {
    throw tooCostly(
      `This would evaluate ${evaluations} times (${environments} environments × ${features} features × ` +
        `${contexts} contexts)`,
      MAX_EVALUATIONS,
      evaluations,
    );
  }
  const answerChars = evaluations * chars;
  if (answerChars > MAX_ANSWER_CONTEXT_CHARS) {
    throw tooCostly(
      `The answer would repeat contexts of up to ${chars} characters for each of ${evaluations} evaluations, ` +
        `${answerChars} characters in all`,
      MAX_ANSWER_CONTEXT_CHARS,
      answerChars,
    );
  }
}

/** Evaluations made between two turns of the event loop: a large request does not hold it long. */
const EVALUATIONS_PER_TURN = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * As the playground, in several environments and for every combination of the context's
 * comma-separated values, each combination made as it is evaluated; refused (400) when it would
 * cost more than the limits above. Each evaluation is written as JSON text as soon as it is made
 * and the answer put together from them, with a turn of the event loop every
 * EVALUATIONS_PER_TURN: the largest answer allowed takes hundreds of milliseconds to make, which
 * other requests need not wait behind. A change to the flags meanwhile may show in the later
 * evaluations only; each feature is read from the model once.
 */
export async function readAdvancedPlayground(
  model: FlagSource,
  input: AdvancedPlaygroundInput,
  visible: ProjectVisibility,
): Promise<Buffer> {
  const environments = [...new Set(input.environments)];
  assertEnvironments(model, input.environments, (i) => `environments.${i}`);
  const { flat, invalid } = flatten(input.context);
  const features = featuresOf(model, input.projects, visible);
  assertAffordable(measureCombinations(flat), environments.length, features.length);
  const flagSets = environments.map((env) => flagsOf(model, env));
  const results = features.map(() => environments.map((): string[] => []));
  let sinceTurn = 0;
  // With nothing to evaluate, no combination is made.
  const combinations = features.length > 0 ? eachCombination(flat) : [];
  for (const combination of combinations) {
    const context = evaluationContext(combination);
    for (const [i, f] of features.entries()) {
      for (const [j, env] of environments.entries()) {
        const result = {
          ...evaluated(model, f, env, flagSets[j]!, context),
          environment: env,
          context: combination,
        };
        results[i]![j]!.push(JSON.stringify(result));
        if (++sinceTurn === EVALUATIONS_PER_TURN) {
          sinceTurn = 0;
          await nextTurn();
        }
      }
    }
  }
  // Put together as bytes a feature at a time, with a turn between: one string of the whole answer
  // (tens of MB) was flattened and encoded when sent, holding the loop for hundreds of ms.
  const json = JSON.stringify;
  const parts = [Buffer.from(`{"input":${json(input)},"features":[`)];
  for (const [i, f] of features.entries()) {
    const byEnvironment = environments.map((env, j) => `${json(env)}:[${results[i]![j]!.join(',')}]`);
    const feature = `{"name":${json(f.name)},"projectId":${json(f.project)},"environments":{${byEnvironment.join(',')}}}`;
    parts.push(Buffer.from(i === 0 ? feature : `,${feature}`));
    results[i] = [];
    await nextTurn();
  }
  const warnings = invalid.length > 0 ? `,"warnings":${json({ invalidContextProperties: invalid })}` : '';
  parts.push(Buffer.from(`]${warnings}}`));
  return Buffer.concat(parts);
}
