import type { FlagSet } from '../client/evaluation/evaluate.js';
import type { ClientFeature, Constraint, Segment, VariantDefinition } from '../client/evaluation/types.js';
import type { ProjectVisibility } from '../http/visibility.js';
import type { FeatureModel } from '../read-model/model.js';
import type { FeatureRecord } from '../read-model/queries.js';

/** A feature as an SDK of the environment would get it, with its disabled strategies too. */
function featureIn(f: FeatureRecord, environment: string): ClientFeature | undefined {
  if (f.archivedAt) return undefined;
  const state = f.environments.find((e) => e.name === environment);
  if (!state) return undefined;
  return {
    name: f.name,
    enabled: state.enabled,
    strategies: f.strategies
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

/** The flags of one environment, built from the model as they are asked for. */
export function flagsOf(model: FeatureModel, environment: string): FlagSet {
  const built = new Map<string, ClientFeature | undefined>();
  return {
    feature(name) {
      if (!built.has(name)) {
        const record = model.feature(name);
        built.set(name, record && featureIn(record, environment));
      }
      return built.get(name);
    },
    segment: (id) => model.segment(id) as Segment | undefined,
  };
}

/** The live features of the projects (`*` or none: all) the caller sees, by name. */
export function featuresOf(
  model: FeatureModel,
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
