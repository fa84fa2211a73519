import { Type } from '@sinclair/typebox';
import { IntegerId } from '../http/schemas.js';

export const RoleType = Type.Union(
  [Type.Literal('root'), Type.Literal('project'), Type.Literal('root-custom'), Type.Literal('custom')],
  { description: 'root and project: built in; root-custom and custom: made by users' },
);

export const RoleSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    type: RoleType,
  },
  { $id: 'Role' },
);

export const PermissionEntry = Type.Object({
  name: Type.String(),
  environment: Type.Optional(Type.String()),
});

export const RoleWithPermissions = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  type: RoleType,
  permissions: Type.Array(PermissionEntry),
});

export const RoleList = Type.Object({ version: Type.Literal(1), roles: Type.Array(RoleSchema) });

export const RoleWithVersion = Type.Object({ version: Type.Literal(1), roles: RoleSchema });

/** Unknown properties of an entry (e.g. Unleash's `id`, `displayName`) are ignored. */
const PermissionInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'A name from GET /api/admin/permissions' }),
  environment: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'For the environment-scoped permissions of project roles; empty or absent: every one',
    }),
  ),
});

export const RoleBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  type: Type.Optional(
    Type.Union([Type.Literal('root-custom'), Type.Literal('custom')], {
      description:
        'root-custom: a root role; custom: a project role. Default on creation: custom; on update: unchanged',
    }),
  ),
  permissions: Type.Optional(Type.Array(PermissionInput, { maxItems: 1000 })),
});

export const RoleParams = Type.Object({ id: IntegerId });

const PermissionDescription = Type.Object({
  name: Type.String(),
  displayName: Type.String(),
  type: Type.Union([Type.Literal('root'), Type.Literal('project'), Type.Literal('environment')]),
});

export const PermissionList = Type.Object({
  version: Type.Literal(1),
  permissions: Type.Object({
    root: Type.Array(PermissionDescription),
    project: Type.Array(PermissionDescription),
    environments: Type.Array(
      Type.Object({ name: Type.String(), permissions: Type.Array(PermissionDescription) }),
    ),
  }),
});
