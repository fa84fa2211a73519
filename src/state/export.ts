import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { allEnvironments } from '../environments/list.js';
import { allFeatureStates } from '../features/import/service.js';
import { allProjects } from '../projects/linked-environments.js';
import { allSegments } from '../segments/list.js';
import { allStrategyDefinitions, describeDefinition } from '../strategies/service.js';
import { allTagTypes } from '../tag-types/service.js';
import { allTags } from '../tags/service.js';
import type { StateExport } from './schemas.js';

const tagOrder = (t: { tagType: string; tagValue: string }) => `${t.tagType}\u0000${t.tagValue}`;

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The whole configuration as a state document (version 4) that an import reads back: from one
 * snapshot, in a fixed order, so two exports of the same state are the same text.
 */
export async function exportState(ctx: AppContext): Promise<Static<typeof StateExport>> {
  return ctx.db.transaction(
    async (tx) => {
      const features = (await allFeatureStates(tx)).sort(byName);
      // A feature's strategies come by environment, each environment's in evaluation order.
      const strategies = features.flatMap((f) =>
        f.strategies.map((s) => ({
          id: s.id,
          featureName: f.name,
          projectId: f.project,
          environment: s.environment,
          name: s.name,
          strategyName: s.name,
          title: s.title,
          disabled: s.disabled,
          parameters: s.parameters,
          constraints: s.constraints,
          variants: s.variants,
          segments: s.segments,
          sortOrder: s.sortOrder,
        })),
      );
      return {
        version: 4 as const,
        features: features.map((f) => ({
          name: f.name,
          description: f.description,
          type: f.type,
          project: f.project,
          stale: f.stale,
          impressionData: f.impressionData,
          archived: f.archivedAt !== null,
          archivedAt: f.archivedAt,
          createdAt: f.createdAt,
        })),
        strategies: (await allStrategyDefinitions(tx)).map(describeDefinition),
        projects: (await allProjects(tx))
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .map((p) => ({
            id: p.id,
            name: p.name,
            description: p.description,
            mode: p.mode,
            defaultStickiness: p.defaultStickiness,
            environments: p.environments,
          })),
        environments: (await allEnvironments(tx)).map((e) => ({
          name: e.name,
          type: e.type,
          enabled: e.enabled,
          protected: e.protected,
          sortOrder: e.sortOrder,
        })),
        featureEnvironments: features.flatMap((f) =>
          [...f.environments].sort(byName).map((e) => ({
            featureName: f.name,
            environment: e.name,
            enabled: e.enabled,
            variants: e.variants as Static<typeof StateExport>['featureEnvironments'][number]['variants'],
          })),
        ),
        featureStrategies: strategies,
        segments: await allSegments(tx),
        featureStrategySegments: strategies.flatMap((s) =>
          s.segments.map((segmentId) => ({ featureStrategyId: s.id, segmentId })),
        ),
        tagTypes: await allTagTypes(tx),
        tags: await allTags(tx),
        // By tag rather than in the order they were added: an import adds a feature's tags at once.
        featureTags: features.flatMap((f) =>
          f.tags
            .map((t) => ({ featureName: f.name, tagType: t.type, tagValue: t.value }))
            .sort((a, b) => (tagOrder(a) < tagOrder(b) ? -1 : 1)),
        ),
      };
    },
    { isolation: 'repeatable read', readOnly: true },
  );
}
