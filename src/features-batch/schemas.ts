import { Type } from '@sinclair/typebox';
import { StoredConstraint } from '../constraints/schemas.js';
import { CreateContextFieldBody } from '../context/schemas.js';
import { CreateFeatureBody } from '../features/core/schemas.js';
import { CreateStrategyBody } from '../features/strategies/schemas.js';
import { StoredVariant, VariantList } from '../features/variants/schemas.js';
import { MAX_IMPORT_ITEMS, Nullable } from '../http/schemas.js';
import { CreateTagTypeBody } from '../tag-types/schemas.js';
import { TagBody } from '../tags/schemas.js';

// The shapes of Unleash's export and import of one project's features in one environment (its
// `exportQuerySchema`, `exportResultSchema`, `importTogglesSchema` and
// `importTogglesValidateSchema`), so that a file exported by one server imports into the other.

const Environment = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The environment to export from',
});
const DownloadFile = Type.Optional(Type.Boolean({ description: 'Answer as a file to save' }));

export const ExportQuery = Type.Union([
  Type.Object({
    environment: Environment,
    downloadFile: DownloadFile,
    features: Type.Array(Type.String({ minLength: 1 }), {
      maxItems: MAX_IMPORT_ITEMS,
      description: 'The features to export, by name; an empty list exports every live feature',
    }),
  }),
  Type.Object({
    environment: Environment,
    downloadFile: DownloadFile,
    tag: Type.String({ minLength: 1, description: 'The live features carrying a tag of this value' }),
  }),
  Type.Object({
    environment: Environment,
    downloadFile: DownloadFile,
    project: Type.String({ minLength: 1, description: 'The live features of this project' }),
  }),
]);

const ExportedFeature = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  type: Type.String(),
  project: Type.String(),
  stale: Type.Boolean(),
  impressionData: Type.Boolean(),
  archived: Type.Boolean(),
});

const ExportedStrategy = Type.Object({
  name: Type.String(),
  id: Type.String(),
  featureName: Type.String(),
  title: Nullable(Type.String()),
  parameters: Type.Record(Type.String(), Type.String()),
  constraints: Type.Array(StoredConstraint),
  variants: Type.Array(StoredVariant),
  disabled: Type.Boolean(),
  segments: Type.Array(Type.Integer()),
});

export const ExportResult = Type.Object({
  features: Type.Array(ExportedFeature),
  featureStrategies: Type.Array(ExportedStrategy),
  featureEnvironments: Type.Array(
    Type.Object({
      enabled: Type.Boolean(),
      featureName: Type.String(),
      environment: Type.String(),
      variants: Type.Array(StoredVariant),
      name: Type.String({ description: 'The feature name, as Unleash writes it' }),
    }),
  ),
  contextFields: Type.Array(
    Type.Object({
      name: Type.String(),
      description: Nullable(Type.String()),
      stickiness: Type.Boolean(),
      sortOrder: Type.Integer(),
      legalValues: Type.Array(
        Type.Object({ value: Type.String(), description: Type.Optional(Type.String()) }),
      ),
      project: Type.Optional(Type.String({ description: 'Set for a field of one project' })),
    }),
  ),
  featureTags: Type.Array(
    Type.Object({ featureName: Type.String(), tagType: Type.String(), tagValue: Type.String() }),
  ),
  segments: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  tagTypes: Type.Array(
    Type.Object({ name: Type.String(), description: Nullable(Type.String()), icon: Nullable(Type.String()) }),
  ),
  dependencies: Type.Array(
    Type.Object({
      feature: Type.String({ description: 'The child' }),
      dependencies: Type.Array(
        Type.Object({ feature: Type.String(), enabled: Type.Boolean(), variants: Type.Array(Type.String()) }),
      ),
    }),
    { description: 'The parent of each exported feature that has one' },
  ),
  links: Type.Array(Type.Unknown(), { description: 'Always empty: Flagpole has no feature links' }),
});

const Items = Type.Array(Type.Unknown(), { maxItems: MAX_IMPORT_ITEMS });

/** An import: an export's `data`, into one project and environment. Elements are checked one by one. */
export const ImportBody = Type.Object({
  project: Type.String({ minLength: 1, maxLength: 100, description: 'The project to import into' }),
  environment: Type.String({ minLength: 1, maxLength: 100, description: 'The environment to import into' }),
  data: Type.Object({
    features: Items,
    featureStrategies: Items,
    tagTypes: Items,
    featureEnvironments: Type.Optional(Items),
    contextFields: Type.Optional(Items),
    featureTags: Type.Optional(Items),
    segments: Type.Optional(Items),
    dependencies: Type.Optional(Items),
    links: Type.Optional(Items),
  }),
});

// Each element as the import reads it (other properties are ignored): the rules of the endpoint
// that makes such an item by hand.

export const FeatureItem = Type.Object({
  ...CreateFeatureBody.properties,
  stale: Type.Optional(Type.Boolean()),
  archived: Type.Optional(Type.Boolean()),
});

export const StrategyItem = Type.Object({
  ...CreateStrategyBody.properties,
  featureName: CreateFeatureBody.properties.name,
});

export const FeatureEnvironmentItem = Type.Object({
  featureName: Type.Optional(Type.String({ minLength: 1 })),
  name: Type.Optional(Type.String({ minLength: 1 })),
  enabled: Type.Boolean(),
  variants: Type.Optional(VariantList),
});

export const ContextFieldItem = Type.Object(CreateContextFieldBody.properties);

export const FeatureTagItem = Type.Object({
  featureName: CreateFeatureBody.properties.name,
  tagType: TagBody.properties.type,
  tagValue: TagBody.properties.value,
});

export const SegmentItem = Type.Object({ id: Type.Integer(), name: Type.String({ minLength: 1 }) });

export const TagTypeItem = Type.Object(CreateTagTypeBody.properties);

export const DependencyItem = Type.Object({
  feature: Type.String({ minLength: 1 }),
  dependencies: Type.Optional(Type.Array(Type.Unknown())),
});

export const LinkItem = Type.Object({
  feature: Type.String({ minLength: 1 }),
  links: Type.Optional(Type.Array(Type.Unknown())),
});

const Item = Type.Object({ message: Type.String(), affectedItems: Type.Array(Type.String()) });

export const ValidateResult = Type.Object({
  errors: Type.Array(Item, { description: 'What makes the import impossible' }),
  warnings: Type.Array(Item, { description: 'What the import does that may be unexpected' }),
  permissions: Type.Array(Item, { description: 'The permissions the caller lacks for this import' }),
});
