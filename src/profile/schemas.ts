import { Type } from '@sinclair/typebox';
import { Nullable } from '../http/schemas.js';

const Role = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.String({ description: '`root`, `root-custom`, `project` or `custom`' }),
  description: Type.String(),
  project: Nullable(Type.String({ description: 'The project of a project role; null for a root role' })),
});

export const Profile = Type.Object({
  rootRole: Role,
  projects: Type.Array(Type.String(), {
    description: 'Projects where the user holds a role, directly or through a group',
  }),
  groups: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      description: Nullable(Type.String()),
      mappingsSSO: Type.Array(Type.String()),
      rootRole: Nullable(Type.Integer()),
    }),
  ),
  subscriptions: Type.Array(Type.String(), {
    description: 'E-mail subscriptions: none, Flagpole sends no e-mail',
  }),
  features: Type.Array(Type.Object({}), { description: 'Deprecated by Unleash: always empty' }),
  canChangePassword: Type.Boolean({ description: 'Whether the user has a password of their own to change' }),
});

export const RolesQuery = Type.Object({
  projectId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Only the roles in this project (and the root roles)',
    }),
  ),
});

export const OwnRoles = Type.Object({ version: Type.Literal(1), roles: Type.Array(Role) });
