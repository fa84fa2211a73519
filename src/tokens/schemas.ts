import { Type } from '@sinclair/typebox';
import { DateTime, IntegerId, Nullable, Timestamp } from '../http/schemas.js';

export const CreateApiTokenBody = Type.Object(
  {
    tokenName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    username: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Older name of tokenName' }),
    ),
    type: Type.String({ description: 'client (or backend), frontend or admin; any case' }),
    environment: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    project: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    projects: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000 })),
    expiresAt: Type.Optional(DateTime),
    alias: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const ApiTokenSchema = Type.Object({
  id: Type.Integer({ description: 'Deletes the token when its secret is lost' }),
  secret: Type.String({ description: 'The whole secret at creation; later only its scope prefix' }),
  tokenName: Type.String(),
  username: Type.String(),
  type: Type.String(),
  environment: Type.String(),
  project: Type.String(),
  projects: Type.Array(Type.String()),
  alias: Nullable(Type.String()),
  expiresAt: Nullable(Timestamp),
  createdAt: Timestamp,
  seenAt: Nullable(Timestamp),
});

export const ApiTokenList = Type.Object({ tokens: Type.Array(ApiTokenSchema) });

export const ApiTokenParams = Type.Object({
  token: Type.String({ minLength: 1, description: 'The secret, or the numeric id' }),
});

export const ApiTokenNameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });

export const UpdateApiTokenBody = Type.Object(
  { expiresAt: Type.String({ format: 'date-time', description: 'The new expiry; must lie ahead' }) },
  { additionalProperties: false },
);

export const CreateProjectApiTokenBody = Type.Object(
  {
    tokenName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    username: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Older name of tokenName' }),
    ),
    type: Type.String({ description: 'client (or backend) or frontend; any case' }),
    environment: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Default: development' }),
    ),
    expiresAt: Type.Optional(DateTime),
  },
  { additionalProperties: false },
);

export const ProjectApiTokensParams = Type.Object({ projectId: Type.String({ minLength: 1 }) });

export const ProjectApiTokenParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  token: Type.String({ minLength: 1, description: 'The secret, or the numeric id' }),
});

export const CreatePatBody = Type.Object(
  {
    description: Type.String({ maxLength: 255 }),
    expiresAt: DateTime,
  },
  { additionalProperties: false },
);

export const PatSchema = Type.Object({
  id: Type.Integer(),
  secret: Type.Optional(Type.String({ description: 'Only in the answer that creates it' })),
  description: Type.String(),
  userId: Type.Integer(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  seenAt: Nullable(Timestamp),
});

export const PatList = Type.Object({ pats: Type.Array(PatSchema) });

export const PatParams = Type.Object({ id: IntegerId });
