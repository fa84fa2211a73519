import { Type } from '@sinclair/typebox';
import { DefaultStrategySchema } from '../features/strategies/schemas.js';
import { ProjectId } from '../http/names.js';
import { Nullable, Timestamp } from '../http/schemas.js';

export const ProjectParams = Type.Object({ projectId: Type.String({ minLength: 1 }) });

export const CreateProjectBody = Type.Object(
  {
    id: ProjectId,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    mode: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('protected'), Type.Literal('private')]),
    ),
    defaultStickiness: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    changeRequestEnvironments: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({ minLength: 1, maxLength: 100 }),
          requiredApprovals: Type.Optional(
            Nullable(Type.Integer({ description: 'Taken as 1 below 1 and as 10 above 10; 1 when left out' })),
          ),
        }),
        { maxItems: 100, description: 'Environments where changes need change requests from the start' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const UpdateProjectBody = Type.Object(
  {
    id: Type.Optional(Type.String()),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    mode: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('protected'), Type.Literal('private')]),
    ),
    defaultStickiness: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const ProjectSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  mode: Type.String(),
  defaultStickiness: Type.String(),
  createdAt: Timestamp,
  updatedAt: Nullable(Timestamp),
});

export const ProjectList = Type.Object({
  version: Type.Literal(1),
  projects: Type.Array(
    Type.Intersect([
      ProjectSchema,
      Type.Object({
        featureCount: Type.Integer(),
        memberCount: Type.Integer(),
        health: Type.Integer(),
        favorite: Type.Boolean(),
      }),
    ]),
  ),
});

export const ProjectDetails = Type.Intersect([
  ProjectSchema,
  Type.Object({
    environments: Type.Array(
      Type.Object({ environment: Type.String(), defaultStrategy: Type.Optional(DefaultStrategySchema) }),
    ),
  }),
]);
