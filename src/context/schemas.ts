import { Type } from '@sinclair/typebox';
import { UrlFriendlyName } from '../http/names.js';
import { Nullable, Timestamp } from '../http/schemas.js';

export const ContextFieldParams = Type.Object({ contextField: Type.String({ minLength: 1 }) });

export const LegalValueParams = Type.Object({
  contextField: Type.String({ minLength: 1 }),
  value: Type.String({ minLength: 1 }),
});

export const LegalValueSchema = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 250 })),
  },
  { additionalProperties: false },
);

const settings = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 250 }))),
  stickiness: Type.Optional(Type.Boolean({ description: 'Whether rollouts may stick to this field' })),
  sortOrder: Type.Optional(
    Type.Integer({ minimum: -2147483648, maximum: 2147483647, description: 'Position in lists' }),
  ),
  // Offered as choices in constraint editors and checked on every constraint saved: a thousand
  // is a long pick list already (a constraint itself takes at most 250 values).
  legalValues: Type.Optional(
    Type.Array(LegalValueSchema, {
      maxItems: 1000,
      description: 'The only values constraints may use (at most 1000); empty: any value',
    }),
  ),
};

export const CreateContextFieldBody = Type.Object({
  name: UrlFriendlyName,
  ...settings,
  project: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'The project the field belongs to: only its features and segments may use it. On a project path the path decides.',
    }),
  ),
});

export const UpdateContextFieldBody = Type.Object(settings);

export const ContextNameBody = Type.Object({ name: UrlFriendlyName });

export const ContextFieldSchema = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  stickiness: Type.Boolean(),
  sortOrder: Type.Integer(),
  legalValues: Type.Array(Type.Object({ value: Type.String(), description: Type.Optional(Type.String()) })),
  createdAt: Timestamp,
  project: Type.Optional(Type.String({ description: 'Set for a field of one project' })),
});

export const ContextFieldList = Type.Array(ContextFieldSchema);

export const ContextListQuery = Type.Object({
  include: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        "`project`: the fields of every project as well (instance list); `root`: the instance's fields as well (project list)",
    }),
  ),
});

export const ProjectContextParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  contextField: Type.String({ minLength: 1 }),
});

export const ProjectLegalValueParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  contextField: Type.String({ minLength: 1 }),
  value: Type.String({ minLength: 1 }),
});

export const ContextFieldStrategies = Type.Object({
  strategies: Type.Array(
    Type.Object({
      id: Type.String(),
      featureName: Type.String(),
      projectId: Type.String(),
      environment: Type.String(),
      strategyName: Type.String(),
    }),
  ),
});
