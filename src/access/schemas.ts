import { Type } from '@sinclair/typebox';
import { IntegerId, Nullable } from '../http/schemas.js';
import { RoleSchema } from '../roles/schemas.js';

const Ids = (description: string, minItems = 0) =>
  Type.Array(IntegerId, { minItems, maxItems: 10_000, description });

export const AddAccessBody = Type.Object({
  roles: Ids('Project roles to grant (at least one)', 1),
  users: Ids('Users each role is granted to'),
  groups: Ids('Groups each role is granted to'),
});

export const RolesBody = Type.Object({
  roles: Ids('The project roles the user or group holds from now on (at least one)', 1),
});

export const ProjectAccessParams = Type.Object({ projectId: Type.String({ minLength: 1 }) });
export const UserRolesParams = Type.Object({ projectId: Type.String({ minLength: 1 }), userId: IntegerId });
export const GroupRolesParams = Type.Object({ projectId: Type.String({ minLength: 1 }), groupId: IntegerId });

export const ProjectAccess = Type.Object({
  roles: Type.Array(RoleSchema, { description: 'The roles that can be granted in a project' }),
  users: Type.Array(
    Type.Object({
      id: Type.Integer(),
      username: Nullable(Type.String()),
      name: Nullable(Type.String()),
      email: Nullable(Type.String()),
      imageUrl: Nullable(Type.String()),
      roles: Type.Array(Type.Integer()),
    }),
  ),
  groups: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      description: Nullable(Type.String()),
      roles: Type.Array(Type.Integer()),
    }),
  ),
});
