import { Type } from '@sinclair/typebox';
import { UrlFriendlyName } from '../../http/names.js';
import { MAX_BATCH_NAMES, MAX_PATCH_OPERATIONS, Nullable, Timestamp } from '../../http/schemas.js';
import { STAGES } from '../lifecycle/stages.js';

export const DependencySchema = Type.Object({
  feature: Type.String({ description: 'The parent feature' }),
  enabled: Type.Boolean({ description: 'true: the parent must be on; false: off' }),
  variants: Type.Array(Type.String(), {
    description: 'When not empty, the parent must resolve to one of these',
  }),
});

export const ProjectFeatureParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  featureName: Type.String({ minLength: 1 }),
});

export const CreateFeatureBody = Type.Object({
  name: UrlFriendlyName,
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  impressionData: Type.Optional(Type.Boolean()),
});

const FeatureMetadata = {
  name: Type.String(),
  description: Nullable(Type.String()),
  type: Type.String(),
  project: Type.String(),
  stale: Type.Boolean(),
  impressionData: Type.Boolean(),
  archived: Type.Boolean(),
  archivedAt: Nullable(Timestamp),
  createdAt: Timestamp,
  lastSeenAt: Nullable(Timestamp),
};

export const FeatureSchema = Type.Object(FeatureMetadata);

export const StrategySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  title: Nullable(Type.String()),
  disabled: Type.Boolean(),
  featureName: Type.String(),
  constraints: Type.Array(Type.Unknown()),
  parameters: Type.Record(Type.String(), Type.String()),
  variants: Type.Array(Type.Unknown()),
  segments: Type.Array(Type.Integer()),
  sortOrder: Type.Integer(),
});

const EnvironmentSummary = {
  name: Type.String(),
  environment: Type.String(),
  type: Type.String(),
  enabled: Type.Boolean(),
  sortOrder: Type.Integer(),
  variantCount: Type.Integer(),
  lastSeenAt: Nullable(Timestamp),
};

export const FeatureEnvironmentSchema = Type.Object({
  ...EnvironmentSummary,
  featureName: Type.String(),
  variants: Type.Array(Type.Unknown()),
  strategies: Type.Array(StrategySchema),
  hasStrategies: Type.Boolean(),
  hasEnabledStrategies: Type.Boolean(),
  safeguards: Type.Optional(
    Type.Array(Type.Unknown(), { description: 'Its own safeguard (Safeguards), if it has one' }),
  ),
  releasePlans: Type.Optional(
    Type.Array(Type.Unknown(), {
      description: 'Its release plan, with the plan’s safeguard (Release plans)',
    }),
  ),
  milestoneName: Type.Optional(Type.String({ description: 'With a plan: its active milestone' })),
  milestoneOrder: Type.Optional(
    Type.Integer({ description: 'With a plan: the sort order of its active milestone' }),
  ),
  totalMilestones: Type.Optional(Type.Integer({ description: 'With a plan: how many milestones it has' })),
});

export const StageSchema = Type.Object({
  stage: Type.Union(STAGES.map((s) => Type.Literal(s))),
  status: Type.Optional(Type.String({ description: 'Completed only: kept or discarded' })),
  enteredStageAt: Timestamp,
});

export const FeatureLinkSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Nullable(Type.String()),
  feature: Type.String(),
});

export const FeatureDetails = Type.Object({
  ...FeatureMetadata,
  favorite: Type.Boolean(),
  environments: Type.Array(FeatureEnvironmentSchema),
  variants: Type.Array(Type.Unknown(), { description: 'Deprecated: variants live in each environment' }),
  children: Type.Array(Type.String(), { description: 'The features that depend on this one' }),
  dependencies: Type.Array(DependencySchema, {
    description: 'The feature this one depends on (at most one)',
  }),
  lifecycle: Type.Optional(StageSchema),
  links: Type.Array(FeatureLinkSchema),
});

export const ProjectFeatureList = Type.Object({
  version: Type.Literal(2),
  features: Type.Array(
    Type.Object({
      ...FeatureMetadata,
      favorite: Type.Boolean(),
      environments: Type.Array(
        Type.Object({
          ...EnvironmentSummary,
          hasStrategies: Type.Boolean(),
          hasEnabledStrategies: Type.Boolean(),
        }),
      ),
      tags: Type.Array(Type.Object({ type: Type.String(), value: Type.String() })),
    }),
  ),
});

export const UpdateFeatureBody = Type.Object({
  name: Type.Optional(Type.String({ description: 'Must be the current name: features cannot be renamed' })),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  stale: Type.Optional(Type.Boolean()),
  impressionData: Type.Optional(Type.Boolean()),
  archived: Type.Optional(Type.Boolean({ description: 'true archives the feature' })),
});

export const PatchBody = Type.Array(
  Type.Object({
    op: Type.Union([
      Type.Literal('add'),
      Type.Literal('remove'),
      Type.Literal('replace'),
      Type.Literal('copy'),
      Type.Literal('move'),
      Type.Literal('test'),
    ]),
    path: Type.String(),
    from: Type.Optional(Type.String()),
    value: Type.Optional(Type.Unknown()),
  }),
  { maxItems: MAX_PATCH_OPERATIONS, description: 'JSON Patch (RFC 6902) operations on the feature' },
);

const FeatureNames = Type.Array(Type.String(), {
  maxItems: MAX_BATCH_NAMES,
  description: `Feature names, at most ${MAX_BATCH_NAMES}`,
});

export const BatchFeaturesBody = Type.Object({ features: FeatureNames });

export const StaleBody = Type.Object({ features: FeatureNames, stale: Type.Boolean() });

export const FeatureNameBody = Type.Object({ name: UrlFriendlyName });

export const CloneFeatureBody = Type.Object({
  name: UrlFriendlyName,
  replaceGroupId: Type.Optional(
    Type.Boolean({ description: "Strategies' groupId becomes the new name (default true)" }),
  ),
});

export const ChangeProjectBody = Type.Object({ newProjectId: Type.String({ minLength: 1, maxLength: 100 }) });

export const FeatureNameParams = Type.Object({ featureName: Type.String({ minLength: 1 }) });

export const ArchivedFeatureList = Type.Object({
  version: Type.Literal(2),
  features: Type.Array(FeatureSchema),
});

/** The list as the route sends it: JSON text made by the database, in the shape of ProjectFeatureList. */
export const ProjectFeatureListText = Type.Unsafe<string>(ProjectFeatureList);

export const DependencyBody = Type.Object({
  feature: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The parent feature, in the same project',
  }),
  enabled: Type.Optional(
    Type.Boolean({ description: 'false: the child is on only while the parent is off' }),
  ),
  variants: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      description: 'The parent must resolve to one of these variants (only with `enabled` true)',
    }),
  ),
});

export const ChildParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  child: Type.String({ minLength: 1 }),
});

export const ParentParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  parent: Type.String({ minLength: 1 }),
});

export const DependencyParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  child: Type.String({ minLength: 1 }),
  parent: Type.String({ minLength: 1 }),
});

export const ArchiveImpact = Type.Object({
  parentsWithChildFeatures: Type.Array(Type.String(), {
    description: 'Named features that others, not named, depend on: archiving them is refused',
  }),
  hasDeletedDependencies: Type.Boolean({
    description: 'Whether archiving them removes dependencies',
  }),
});
