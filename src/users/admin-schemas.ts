import { Type } from '@sinclair/typebox';
import { INT4_MAX, MAX_BATCH_NAMES, Nullable, Timestamp } from '../http/schemas.js';

/** A user as others may see them; `name` and `email` are left out when the user has none. */
const Person = {
  id: Type.Integer(),
  name: Type.Optional(Type.String()),
  username: Nullable(Type.String()),
  email: Type.Optional(Type.String()),
};

export const SearchQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 255,
      description:
        'Part of a name, username or email (case-insensitive); fewer than 2 characters find nobody',
    }),
  ),
});

export const SearchResult = Type.Array(
  Type.Object({
    ...Person,
    imageUrl: Nullable(Type.String()),
    seenAt: Nullable(Timestamp),
    accountType: Type.String(),
  }),
  { description: "Unleash's usersSearchSchema: at most 100 users, by id" },
);

export const UsersGroupsBase = Type.Object({
  users: Type.Array(
    Type.Object({
      ...Person,
      imageUrl: Nullable(Type.String()),
      rootRole: Type.Integer({ description: 'Id of the root role' }),
      accountType: Type.String(),
    }),
  ),
  groups: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      description: Nullable(Type.String()),
      rootRole: Nullable(Type.Integer()),
      userCount: Type.Integer(),
      users: Type.Array(Type.Object({ user: Type.Object({ id: Type.Integer() }) })),
    }),
  ),
});

export const AdminCount = Type.Object({
  password: Type.Integer({ description: 'Admins who have a password' }),
  noPassword: Type.Integer({
    description: 'Admins without a password (e.g. signing in through OpenID Connect)',
  }),
  service: Type.Integer({ description: 'Admin service accounts: Flagpole has none, so 0' }),
});

export const InactiveUsers = Type.Object({
  version: Type.Literal(1),
  inactiveUsers: Type.Array(
    Type.Object({
      ...Person,
      seenAt: Nullable(Timestamp),
      createdAt: Timestamp,
      patSeenAt: Nullable(Timestamp),
    }),
  ),
});

export const IdsBody = Type.Object(
  {
    ids: Type.Array(Type.Integer({ minimum: 0, maximum: INT4_MAX }), {
      maxItems: MAX_BATCH_NAMES,
      description: 'User ids; those that are not inactive are left alone',
    }),
  },
  { additionalProperties: false },
);

export const PasswordBody = Type.Object(
  {
    password: Type.String({ maxLength: 256, description: 'The password to check' }),
    oldPassword: Type.Optional(Type.String({ maxLength: 256 })),
    confirmPassword: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);
