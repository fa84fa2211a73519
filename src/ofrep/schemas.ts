import { Type } from '@sinclair/typebox';

export const OfrepFlagParams = Type.Object({ key: Type.String({ minLength: 1 }) });

export const OfrepBulkQuery = Type.Object(
  {
    flagConfigEtag: Type.Optional(Type.String()),
    flagConfigLastModified: Type.Optional(Type.String()),
  },
  { description: 'Sent by providers after a change notification; accepted and not needed here' },
);

const Metadata = Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean(), Type.Number()]));

export const OfrepSuccess = Type.Object({
  key: Type.String(),
  value: Type.Unknown({ description: 'A boolean, string, number or object' }),
  variant: Type.String(),
  reason: Type.String({ description: 'TARGETING_MATCH, SPLIT, DISABLED or DEFAULT' }),
  metadata: Metadata,
});

const OfrepKeyedError = Type.Object({
  key: Type.String(),
  errorCode: Type.String({ description: 'FLAG_NOT_FOUND, PARSE_ERROR or INVALID_CONTEXT' }),
  errorDetails: Type.String(),
});

export const OfrepBulk = Type.Object({
  flags: Type.Array(Type.Union([OfrepSuccess, OfrepKeyedError])),
});
