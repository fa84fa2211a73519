import { Type } from '@sinclair/typebox';
import { StoredConstraint } from '../constraints/schemas.js';
import { CreateEnvironmentBody } from '../environments/schemas.js';
import { CreateFeatureBody } from '../features/core/schemas.js';
import { UpdateStrategyBody } from '../features/strategies/schemas.js';
import { StoredVariant, VariantList } from '../features/variants/schemas.js';
import { UrlFriendlyName } from '../http/names.js';
import { DateTime, MAX_IMPORT_ITEMS, Nullable, Timestamp } from '../http/schemas.js';
import { CreateProjectBody } from '../projects/schemas.js';
import { SegmentBody } from '../segments/schemas.js';
import { CreateTagTypeBody } from '../tag-types/schemas.js';
import { TagBody } from '../tags/schemas.js';

/** The arrays of a state document, in the order an import applies them. */
export const STATE_ARRAYS = [
  'environments',
  'strategies',
  'projects',
  'tagTypes',
  'tags',
  'segments',
  'features',
  'featureEnvironments',
  'featureStrategies',
  'featureStrategySegments',
  'featureTags',
] as const;
export type StateArray = (typeof STATE_ARRAYS)[number];

/**
 * The body of E5. Elements are checked one by one by the import, so that each problem names its
 * item (`featureStrategies[3].constraints[0].operator`); properties it does not read are ignored.
 */
export const StateDocument = Type.Object({
  version: Type.Integer({
    minimum: 1,
    description: 'The version of the state format; exports are version 4',
  }),
  ...Object.fromEntries(
    STATE_ARRAYS.map((name) => [
      name,
      Type.Optional(Type.Array(Type.Unknown(), { maxItems: MAX_IMPORT_ITEMS })),
    ]),
  ),
});

export const StateQuery = Type.Object({
  drop: Type.Boolean({
    default: false,
    description: 'Remove features, segments, tags, custom strategy types and unlisted projects first',
  }),
  keep: Type.Boolean({
    default: true,
    description: 'Leave items that exist as they are (false: overwrite them)',
  }),
});

// Each element as the import reads it: the rules of the endpoint that makes such an item by hand.

const Date_ = Type.Optional(Nullable(DateTime));

export const FeatureItem = Type.Object({
  ...CreateFeatureBody.properties,
  project: Type.Optional(CreateProjectBody.properties.id),
  stale: Type.Optional(Type.Boolean()),
  archived: Type.Optional(Type.Boolean()),
  archivedAt: Date_,
  createdAt: Date_,
});

export const ProjectItem = Type.Object({
  ...CreateProjectBody.properties,
  environments: Type.Optional(
    Type.Array(UrlFriendlyName, { description: 'Flagpole: the environments linked to the project' }),
  ),
});

export const EnvironmentItem = Type.Object({
  ...CreateEnvironmentBody.properties,
  protected: Type.Optional(Type.Boolean()),
});

export const StrategyTypeItem = Type.Object({
  name: UrlFriendlyName,
  title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  displayName: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  deprecated: Type.Optional(Type.Boolean()),
  parameters: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        type: Type.Optional(Type.String({ maxLength: 100 })),
        description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
        required: Type.Optional(Type.Boolean()),
      }),
      { maxItems: 100 },
    ),
  ),
});

export const TagTypeItem = Type.Object(CreateTagTypeBody.properties);

export const TagItem = Type.Object(TagBody.properties);

export const FeatureTagItem = Type.Object({
  featureName: UrlFriendlyName,
  tagType: TagBody.properties.type,
  tagValue: TagBody.properties.value,
});

export const SegmentItem = Type.Object({
  ...SegmentBody.properties,
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  createdBy: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  createdAt: Date_,
});

export const FeatureEnvironmentItem = Type.Object({
  featureName: UrlFriendlyName,
  environment: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  enabled: Type.Boolean(),
  variants: Type.Optional(VariantList),
});

export const StrategyItem = Type.Object({
  ...UpdateStrategyBody.properties,
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  featureName: UrlFriendlyName,
  environment: Type.String({ minLength: 1, maxLength: 100 }),
  strategyName: UpdateStrategyBody.properties.name,
  projectId: Type.Optional(CreateProjectBody.properties.id),
});

export const StrategySegmentItem = Type.Object({
  featureStrategyId: Type.String({ minLength: 1, maxLength: 100 }),
  segmentId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});

// The export: what an import reads, every array filled.

const ExportedStrategy = Type.Object({
  id: Type.String(),
  featureName: Type.String(),
  projectId: Type.String(),
  environment: Type.String(),
  name: Type.String(),
  strategyName: Type.String(),
  title: Nullable(Type.String()),
  disabled: Type.Boolean(),
  parameters: Type.Record(Type.String(), Type.String()),
  constraints: Type.Array(StoredConstraint),
  variants: Type.Array(StoredVariant),
  segments: Type.Array(Type.Integer()),
  sortOrder: Type.Integer(),
});

export const StateExport = Type.Object({
  version: Type.Literal(4),
  features: Type.Array(
    Type.Object({
      name: Type.String(),
      description: Nullable(Type.String()),
      type: Type.String(),
      project: Type.String(),
      stale: Type.Boolean(),
      impressionData: Type.Boolean(),
      archived: Type.Boolean(),
      archivedAt: Nullable(Timestamp),
      createdAt: Timestamp,
    }),
  ),
  strategies: Type.Array(
    Type.Object({
      name: Type.String(),
      displayName: Type.String(),
      title: Nullable(Type.String()),
      description: Type.String(),
      editable: Type.Boolean(),
      deprecated: Type.Boolean(),
      parameters: Type.Array(
        Type.Object({
          name: Type.String(),
          type: Type.String(),
          description: Type.String(),
          required: Type.Boolean(),
        }),
      ),
    }),
  ),
  projects: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      description: Nullable(Type.String()),
      mode: Type.String(),
      defaultStickiness: Type.String(),
      environments: Type.Array(Type.String()),
    }),
  ),
  environments: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String(),
      enabled: Type.Boolean(),
      protected: Type.Boolean(),
      sortOrder: Type.Integer(),
    }),
  ),
  featureEnvironments: Type.Array(
    Type.Object({
      featureName: Type.String(),
      environment: Type.String(),
      enabled: Type.Boolean(),
      variants: Type.Array(StoredVariant),
    }),
  ),
  featureStrategies: Type.Array(ExportedStrategy),
  segments: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      description: Nullable(Type.String()),
      project: Nullable(Type.String()),
      constraints: Type.Array(StoredConstraint),
      createdBy: Nullable(Type.String()),
      createdAt: Timestamp,
    }),
  ),
  featureStrategySegments: Type.Array(
    Type.Object({ featureStrategyId: Type.String(), segmentId: Type.Integer() }),
  ),
  tagTypes: Type.Array(
    Type.Object({ name: Type.String(), description: Nullable(Type.String()), icon: Nullable(Type.String()) }),
  ),
  tags: Type.Array(Type.Object({ type: Type.String(), value: Type.String() })),
  featureTags: Type.Array(
    Type.Object({ featureName: Type.String(), tagType: Type.String(), tagValue: Type.String() }),
  ),
});
