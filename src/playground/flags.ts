import type { FlagSet } from '../client/evaluation/evaluate.js';
import type { ClientFeature, Constraint, Segment, VariantDefinition } from '../client/evaluation/types.js';
import type { ProjectVisibility } from '../http/visibility.js';
import type { FeatureModel } from '../read-model/model.js';

/**
 * What the playground reads of the flags: the model, or the model as a change request would leave
 * it (its preview).
 */
export type FlagSource = Pick<
  FeatureModel,
  'feature' | 'allFeatures' | 'liveFeaturesOf' | 'segment' | 'environment'
>;

import type { FeatureRecord } from '../read-model/queries.js';

/** A feature as an SDK of the environment would get it, with its disabled strategies too. */
function featureIn(f: FeatureRecord, environment: string): ClientFeature | undefined {
  if (f.archivedAt) return undefined;
  const state = f.environments.find((e) => e.name === environment);
  if (!state) return undefined;
  return {
    name: f.name,
    enabled: state.enabled,
    strategies: [...f.releaseStrategies, ...f.strategies]
      .filter((s) => s.environment === environment)
      .map((s) => ({
        id: s.id,
        name: s.name,
        title: s.title,
        disabled: s.disabled,
        parameters: s.parameters,
        constraints: s.constraints as Constraint[],
        segments: s.segments,
        variants: s.variants as VariantDefinition[],
      })),
    variants: state.variants as VariantDefinition[],
    dependencies: f.dependencies,
  };
}

/**
 * Each record's form per environment, kept while the record lasts (a change replaces it): what is
 * compiled from a form for evaluating is then made once per change, not once per request.
 */
const forms = new WeakMap<FeatureRecord, Map<string, ClientFeature | undefined>>();

export function formIn(record: FeatureRecord, environment: string): ClientFeature | undefined {
  let byEnvironment = forms.get(record);
  if (!byEnvironment) {
    byEnvironment = new Map();
    forms.set(record, byEnvironment);
  }
  if (!byEnvironment.has(environment)) byEnvironment.set(environment, featureIn(record, environment));
  return byEnvironment.get(environment);
}

/** The flags of one environment, from the model. */
export function flagsOf(model: FlagSource, environment: string): FlagSet {
  return {
    feature(name) {
      const record = model.feature(name);
      return record && formIn(record, environment);
    },
    segment: (id) => model.segment(id) as Segment | undefined,
  };
}

/** The live features of the projects (`*` or none: all) the caller sees, by name. */
export function featuresOf(
  model: FlagSource,
  projects: string[] | '*' | undefined,
  visible: ProjectVisibility,
): FeatureRecord[] {
  const list =
    projects === undefined || projects === '*'
      ? [...model.allFeatures()].filter((f) => !f.archivedAt)
      : [...new Set(projects)].flatMap((p) => model.liveFeaturesOf(p));
  return list
    .filter((f) => visible.sees(f.project))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
