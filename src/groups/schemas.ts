import { Type } from '@sinclair/typebox';
import { INT4_MAX, INT4_MIN, IntegerId, Nullable, Timestamp } from '../http/schemas.js';
import { UserSchema } from '../users/schemas.js';

export const GroupBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  mappingsSSO: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })),
  rootRole: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: INT4_MIN,
        maximum: INT4_MAX,
        description: 'A root role (1 Admin, 2 Editor, 3 Viewer or a custom root role) every member holds too',
      }),
    ),
  ),
  users: Type.Optional(
    Type.Array(Type.Object({ user: Type.Object({ id: IntegerId }) }), {
      maxItems: 10_000,
      description: 'The members; left out: none',
    }),
  ),
});

const GroupMember = Type.Object({
  user: UserSchema,
  joinedAt: Timestamp,
  createdBy: Nullable(Type.String()),
});

const GroupFields = {
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  mappingsSSO: Type.Array(Type.String()),
  rootRole: Nullable(Type.Integer()),
  createdBy: Nullable(Type.String()),
  createdAt: Timestamp,
  users: Type.Array(GroupMember),
};

export const GroupSchema = Type.Object(GroupFields);

export const GroupList = Type.Object({
  groups: Type.Array(
    Type.Object({ ...GroupFields, userCount: Type.Integer(), projects: Type.Array(Type.String()) }),
  ),
});

export const GroupParams = Type.Object({ groupId: IntegerId });
