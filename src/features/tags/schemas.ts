import { Type } from '@sinclair/typebox';
import { MAX_BATCH_NAMES } from '../../http/schemas.js';
import { TagTypeName } from '../../tag-types/schemas.js';

export const FeatureTagParams = Type.Object({ featureName: Type.String({ minLength: 1 }) });

export const FeatureTagItemParams = Type.Object({
  featureName: Type.String({ minLength: 1 }),
  type: Type.String({ minLength: 1 }),
  value: Type.String({ minLength: 1 }),
});

/** A tag in a list of changes: both fields, as Unleash asks. */
const TagItem = Type.Object(
  {
    value: Type.String({ minLength: 2, maxLength: 50, description: '2 to 50 characters' }),
    type: TagTypeName,
  },
  { additionalProperties: false },
);

const TagChanges = {
  addedTags: Type.Array(TagItem, { maxItems: 100, description: 'Tags to add (created when new)' }),
  removedTags: Type.Array(TagItem, { maxItems: 100, description: 'Tags to take off' }),
};

export const FeatureTagChangesBody = Type.Object(TagChanges, { additionalProperties: false });

export const ProjectTagChangesBody = Type.Object(
  {
    features: Type.Array(Type.String({ minLength: 1 }), {
      maxItems: MAX_BATCH_NAMES,
      description: 'Feature names',
    }),
    tags: Type.Object(TagChanges, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
