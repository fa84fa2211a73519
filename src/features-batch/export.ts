import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { Constraint } from '../constraints/rules.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { hiddenProject, type ProjectVisibility } from '../http/visibility.js';
import type { FeatureRecord } from '../read-model/queries.js';
import { allTagTypes } from '../tag-types/service.js';
import type { ExportQuery, ExportResult } from './schemas.js';

type Query = Static<typeof ExportQuery>;

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const byTag = (a: { type: string; value: string }, b: { type: string; value: string }) =>
  a.type < b.type ? -1 : a.type > b.type ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;

/**
 * The features a query asks for, from the read model: by name (archived ones too), by tag value or
 * by project — of the projects the caller sees (a name in another is left out, as an unknown one).
 */
function selected(ctx: AppContext, visible: ProjectVisibility, query: Query): FeatureRecord[] {
  const seen = (f: FeatureRecord) => visible.sees(f.project);
  const live = () => [...ctx.model.allFeatures()].filter((f) => f.archivedAt === null && seen(f));
  if ('features' in query) {
    if (query.features.length === 0) return live().sort(byName);
    return [...new Set(query.features)]
      .flatMap((name) => ctx.model.feature(name) ?? [])
      .filter(seen)
      .sort(byName);
  }
  if ('tag' in query)
    return live()
      .filter((f) => f.tags.some((t) => t.value === query.tag))
      .sort(byName);
  if (!ctx.model.project(query.project) || !visible.sees(query.project)) throw hiddenProject(query.project);
  return [...ctx.model.liveFeaturesOf(query.project)];
}

/**
 * Unleash's export: the chosen features with their strategies, state and variants in one
 * environment, their tags, and what an import elsewhere needs first (the context fields and
 * segments their strategies use, the tag types of their tags). Recorded as `features-exported`.
 */
export async function exportFeatures(
  ctx: AppContext,
  identity: Identity,
  visible: ProjectVisibility,
  query: Query,
): Promise<Static<typeof ExportResult>> {
  const environment = query.environment;
  if (!ctx.model.environment(environment)) {
    throw new NotFoundError(
      `There is no environment named "${environment}": see GET /api/admin/environments.`,
    );
  }
  const features = selected(ctx, visible, query);
  const strategies = features.flatMap((f) => f.strategies.filter((s) => s.environment === environment));
  const segmentIds = [...new Set(strategies.flatMap((s) => s.segments))].sort((a, b) => a - b);
  const segments = segmentIds.flatMap((id) => ctx.model.segment(id) ?? []);
  const constraints: Constraint[] = [...strategies, ...segments].flatMap((x) => x.constraints);
  const contextNames = new Set(constraints.map((c) => c.contextName));
  const tagTypeNames = new Set(features.flatMap((f) => f.tags.map((t) => t.type)));

  return ctx.db.transaction(async (tx) => {
    const result = {
      features: features.map((f) => ({
        name: f.name,
        description: f.description,
        type: f.type,
        project: f.project,
        stale: f.stale,
        impressionData: f.impressionData,
        archived: f.archivedAt !== null,
      })),
      featureStrategies: strategies.map((s) => ({
        name: s.name,
        id: s.id,
        featureName: s.featureName,
        title: s.title,
        parameters: s.parameters,
        constraints: s.constraints,
        variants: s.variants,
        disabled: s.disabled,
        segments: s.segments,
      })),
      featureEnvironments: features.flatMap((f) =>
        f.environments
          .filter((e) => e.name === environment)
          .map((e) => ({
            enabled: e.enabled,
            featureName: f.name,
            environment,
            variants: e.variants as Static<typeof ExportResult>['featureEnvironments'][number]['variants'],
            name: f.name,
          })),
      ),
      contextFields: ctx.model
        .contextFields()
        .filter((c) => contextNames.has(c.name))
        .map((c) => ({
          name: c.name,
          description: c.description,
          stickiness: c.stickiness,
          sortOrder: c.sortOrder,
          legalValues: c.legalValues,
          ...(c.project !== null ? { project: c.project } : {}),
        })),
      // By tag rather than in the order they were added: an import adds a feature's tags at once.
      featureTags: features.flatMap((f) =>
        [...f.tags].sort(byTag).map((t) => ({ featureName: f.name, tagType: t.type, tagValue: t.value })),
      ),
      segments: segments.map((s) => ({ id: s.id, name: s.name })),
      tagTypes: (await allTagTypes(tx)).filter((t) => tagTypeNames.has(t.name)),
      dependencies: features
        .filter((f) => f.dependencies.length > 0)
        .map((f) => ({ feature: f.name, dependencies: f.dependencies })),
      links: [],
    };
    recordEvent(tx, actorOf(identity), {
      type: 'features-exported',
      environment,
      data: { environment, features: features.map((f) => f.name) },
    });
    return result;
  });
}
