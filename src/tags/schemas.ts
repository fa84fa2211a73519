import { Type } from '@sinclair/typebox';
import { TagTypeName } from '../tag-types/schemas.js';

export const TagSchema = Type.Object({ value: Type.String(), type: Type.String() });

/** A tag in a request: `type` defaults to `simple`, as in Unleash. */
export const TagBody = Type.Object(
  {
    value: Type.String({ minLength: 2, maxLength: 50, description: '2 to 50 characters' }),
    type: Type.Optional(TagTypeName),
  },
  { additionalProperties: false },
);

export const TagList = Type.Object({ version: Type.Literal(1), tags: Type.Array(TagSchema) });

export const TagEnvelope = Type.Object({ version: Type.Literal(1), tag: TagSchema });

export const TagTypeParam = Type.Object({ type: Type.String({ minLength: 1 }) });

export const TagParams = Type.Object({
  type: Type.String({ minLength: 1 }),
  value: Type.String({ minLength: 1 }),
});
