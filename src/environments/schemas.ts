import { Type } from '@sinclair/typebox';
import { DefaultStrategySchema } from '../features/strategies/schemas.js';
import { UrlFriendlyName } from '../http/names.js';

export const EnvironmentParams = Type.Object({ name: Type.String({ minLength: 1 }) });

const EnvironmentFields = {
  name: Type.String(),
  type: Type.String(),
  enabled: Type.Boolean(),
  protected: Type.Boolean(),
  sortOrder: Type.Integer(),
};

export const EnvironmentSchema = Type.Object({
  ...EnvironmentFields,
  projectCount: Type.Integer({ description: 'Projects linked to the environment' }),
  apiTokenCount: Type.Integer({ description: 'API tokens for the environment' }),
  enabledToggleCount: Type.Integer({ description: 'Live features enabled in the environment' }),
});

export const EnvironmentList = Type.Object({
  version: Type.Literal(1),
  environments: Type.Array(EnvironmentSchema),
});

export const ProjectEnvironmentList = Type.Object({
  version: Type.Literal(1),
  environments: Type.Array(
    Type.Object({
      ...EnvironmentFields,
      projectApiTokenCount: Type.Integer(),
      projectEnabledToggleCount: Type.Integer(),
      visible: Type.Boolean({ description: 'Whether the project has the environment' }),
      defaultStrategy: Type.Optional(DefaultStrategySchema),
    }),
  ),
});

const EnvironmentType = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'development, test, preproduction or production (other values are kept as they are)',
});

const SortOrder = Type.Integer({ minimum: -2147483648, maximum: 2147483647 });

export const CreateEnvironmentBody = Type.Object(
  {
    name: UrlFriendlyName,
    type: EnvironmentType,
    enabled: Type.Optional(Type.Boolean()),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

export const UpdateEnvironmentBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    type: Type.Optional(EnvironmentType),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

export const SortOrderBody = Type.Record(Type.String(), SortOrder, {
  description: 'Environment names mapped to their new sort order',
});

export const NameBody = Type.Object({ name: UrlFriendlyName });

export const ProjectEnvironmentBody = Type.Object({
  environment: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ProjectEnvironmentParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  environment: Type.String({ minLength: 1 }),
});
