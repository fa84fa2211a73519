import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, Timestamp } from '../http/schemas.js';

export const CreateSignupTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    expiresAt: Type.String({
      format: 'date-time',
      description: 'When the link stops working; at most one month from now (a later time is cut to that)',
    }),
  },
  { additionalProperties: false },
);

export const UpdateSignupTokenBody = Type.Object(
  {
    expiresAt: Type.Optional(DateTime),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SignupToken = Type.Object({
  secret: Type.String(),
  url: Nullable(Type.String()),
  name: Type.String(),
  enabled: Type.Boolean({ description: 'false once the link has expired' }),
  expiresAt: Timestamp,
  createdAt: Timestamp,
  createdBy: Nullable(Type.String()),
  role: Type.Object({ id: Type.Integer(), name: Type.String(), type: Type.String() }),
  users: Type.Array(
    Type.Object({ id: Type.Integer(), name: Nullable(Type.String()), username: Nullable(Type.String()) }),
  ),
});

export const SignupTokenList = Type.Object({ tokens: Type.Array(SignupToken) });

export const SignupTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 255 }) });

export const InvitedUserBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 255 }),
  name: Type.String({ maxLength: 255 }),
  password: Type.String({ maxLength: 256 }),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});
