import type { FlagSet } from '../client/evaluation/evaluate.js';
import { type Explanation, explain, type StrategyOutcome } from '../client/evaluation/explain.js';
import type { Constraint, Context, StrategyDefinition, Variant } from '../client/evaluation/types.js';
import type { FeatureModel } from '../read-model/model.js';
import type { FeatureRecord } from '../read-model/queries.js';
import { formIn } from './flags.js';

// An evaluation of the playground is written as JSON text from parts written once per definition
// (a strategy's name, parameters, link and variants; each constraint's fields): only the results
// are written per evaluation. The advanced playground writes up to 15,000 of them per request.

const json = JSON.stringify;

/** An object's JSON without its closing brace, ready for more fields (`{` alone for an empty one). */
function open(value: object): string {
  const text = json(value);
  return text === '{}' ? '{' : `${text.slice(0, -1)},`;
}

const constraintParts = new WeakMap<Constraint, string>();

/** A constraint with its result, as Unleash's playground shows it. */
function constraintJson(constraint: Constraint, result: boolean): string {
  let part = constraintParts.get(constraint);
  if (part === undefined) {
    part = open(constraint);
    constraintParts.set(constraint, part);
  }
  return `${part}"result":${result}}`;
}

const arrays = new WeakMap<object, string>();

/** The JSON of a list of definitions (variants), written once per list. */
function listJson(list: readonly unknown[]): string {
  let text = arrays.get(list);
  if (text === undefined) {
    text = json(list);
    arrays.set(list, text);
  }
  return text;
}

function variantJson(v: Variant): string {
  return json({ name: v.name, enabled: v.enabled, ...(v.payload ? { payload: v.payload } : {}) });
}

/** The feature's variant as Unleash's playground words it. */
function featureVariantJson(e: Explanation): string {
  if (!e.enabled) return '{"name":"disabled","enabled":false,"feature_enabled":false}';
  const v = variantJson(e.variant).slice(0, -1);
  return e.variant.enabled
    ? `${v},"feature_enabled":true}`
    : `${v},"feature_enabled":true,"featureEnabled":true}`;
}

interface StrategyParts {
  /** Up to the result's fields: name, id, title, disabled, parameters. */
  head: string;
  /** The links, and the end of the strategy. */
  tail: string;
}

const strategyParts = new WeakMap<StrategyDefinition, StrategyParts>();

function partsOf(s: StrategyDefinition, f: FeatureRecord, environment: string): StrategyParts {
  let parts = strategyParts.get(s);
  if (!parts) {
    const edit = `/projects/${f.project}/features/${f.name}/strategies/edit?environmentId=${environment}&strategyId=${s.id}`;
    parts = {
      head: open({
        name: s.name,
        id: s.id,
        ...(s.title ? { title: s.title } : {}),
        disabled: s.disabled ?? false,
        parameters: s.parameters ?? {},
      }),
      tail: `,"links":${json({ edit })}}`,
    };
    strategyParts.set(s, parts);
  }
  return parts;
}

function strategyJson(
  model: FeatureModel,
  o: StrategyOutcome,
  f: FeatureRecord,
  environment: string,
): string {
  const s = o.strategy;
  const { head, tail } = partsOf(s, f, environment);
  const variant =
    o.variant !== undefined
      ? `,"variant":${o.variant ? variantJson(o.variant) : 'null'},"variants":${listJson(s.variants ?? [])}`
      : '';
  const result = `"result":{"enabled":${json(o.enabled)},"evaluationStatus":"${o.status}"${variant}}`;
  const constraints = o.constraints.map((c) => constraintJson(c.constraint, c.result)).join(',');
  const segments = o.segments
    .map(
      (seg) =>
        `{"id":${seg.id},"name":${json(model.segment(seg.id)?.name ?? '')},"result":${seg.result},"constraints":[${seg.constraints
          .map((c) => constraintJson(c.constraint, c.result))
          .join(',')}]}`,
    )
    .join(',');
  return `${head}${result},"constraints":[${constraints}],"segments":[${segments}]${tail}`;
}

/**
 * One feature evaluated in one environment for one context, with its reasons, as JSON text;
 * `more` is written after its fields (the advanced playground's environment and context).
 */
export function evaluatedJson(
  model: FeatureModel,
  f: FeatureRecord,
  environment: string,
  flags: FlagSet,
  context: Context,
  more = '',
): string {
  const feature = formIn(f, environment);
  const e = explain(feature ?? { name: f.name, enabled: false }, context, flags);
  const strategies = e.strategies.map((o) => strategyJson(model, o, f, environment)).join(',');
  return (
    `{"name":${json(f.name)},"projectId":${json(f.project)},"isEnabled":${e.enabled},` +
    `"isEnabledInCurrentEnvironment":${e.environmentEnabled},"hasUnsatisfiedDependency":${!e.parentsSatisfied},` +
    `"variant":${featureVariantJson(e)},"variants":${listJson(e.variants)},` +
    `"strategies":{"result":${json(e.strategiesResult)},"data":[${strategies}]}${more}}`
  );
}
