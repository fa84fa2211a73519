import { Type } from '@sinclair/typebox';
import { Nullable } from '../http/schemas.js';

/** Tag type names: URL-friendly, 2 to 50 characters. */
export const TagTypeName = Type.String({
  minLength: 2,
  maxLength: 50,
  pattern: "^[A-Za-z0-9\\-_.!~*'()]+$",
  description: "Letters, digits and - _ . ! ~ * ' ( ), 2 to 50 characters",
});

export const TagTypeParams = Type.Object({ name: Type.String({ minLength: 1 }) });

export const TagTypeSchema = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  icon: Nullable(Type.String()),
});

export const CreateTagTypeBody = Type.Object(
  {
    name: TagTypeName,
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    icon: Type.Optional(Nullable(Type.String({ maxLength: 250 }))),
  },
  { additionalProperties: false },
);

export const UpdateTagTypeBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    icon: Type.Optional(Nullable(Type.String({ maxLength: 250 }))),
  },
  { additionalProperties: false },
);

export const TagTypeList = Type.Object({ version: Type.Literal(1), tagTypes: Type.Array(TagTypeSchema) });

export const TagTypeEnvelope = Type.Object({ version: Type.Literal(1), tagType: TagTypeSchema });

export const TagTypeValidation = Type.Object({ valid: Type.Boolean(), tagType: TagTypeSchema });
