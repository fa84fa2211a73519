import { Type } from '@sinclair/typebox';
import { IntegerId, Nullable, Timestamp } from '../http/schemas.js';

export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    username: Nullable(Type.String()),
    imageUrl: Nullable(Type.String()),
    rootRole: Type.Integer({ description: 'Id of the root role' }),
    loginAttempts: Type.Integer({ description: 'Failed logins since the last successful one' }),
    seenAt: Nullable(Timestamp),
    createdAt: Timestamp,
    isAPI: Type.Boolean(),
    accountType: Type.String(),
    emailSent: Type.Boolean(),
  },
  { $id: 'User' },
);

const RootRole = Type.Union([IntegerId, Type.String({ minLength: 1 })], {
  description: 'Root role id (1 Admin, 2 Editor, 3 Viewer, or a custom root role) or name',
});

export const CreateUserBody = Type.Object(
  {
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    password: Type.Optional(Type.String({ maxLength: 256 })),
    rootRole: RootRole,
    sendEmail: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    rootRole: Type.Optional(RootRole),
  },
  { additionalProperties: false },
);

export const UserIdParams = Type.Object({ id: IntegerId });

export const RoleSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  type: Type.String(),
});

export const UserList = Type.Object({ users: Type.Array(UserSchema), rootRoles: Type.Array(RoleSchema) });

export const ResetLinkBody = Type.Object(
  { id: Type.String({ minLength: 1, description: "The user's email" }) },
  { additionalProperties: false },
);

export const ResetLink = Type.Object({ resetPasswordUrl: Type.String() });

export const NewPasswordBody = Type.Object(
  { password: Type.String({ maxLength: 256 }) },
  { additionalProperties: false },
);

export const ChangeOwnPasswordBody = Type.Object(
  {
    password: Type.String({ maxLength: 256 }),
    confirmPassword: Type.String({ maxLength: 256 }),
    oldPassword: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

const Feedback = Type.Object({
  userId: Type.Integer(),
  feedbackId: Type.String(),
  neverShow: Type.Boolean(),
  given: Nullable(Timestamp),
});

export const CurrentUser = Type.Object({
  user: Type.Object({
    id: Type.Optional(Type.Integer()),
    name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    username: Nullable(Type.String()),
    imageUrl: Nullable(Type.String()),
    rootRole: Nullable(Type.Integer()),
    loginAttempts: Type.Integer(),
    seenAt: Nullable(Timestamp),
    createdAt: Nullable(Timestamp),
    isAPI: Type.Boolean(),
    accountType: Type.String(),
    emailSent: Type.Boolean(),
  }),
  permissions: Type.Array(
    Type.Object({
      permission: Type.String(),
      project: Type.Optional(Type.String()),
      environment: Type.Optional(Type.String()),
    }),
  ),
  feedback: Type.Array(Feedback),
  splash: Type.Object({}, { additionalProperties: true }),
});
