import { type TSchema, Type } from '@sinclair/typebox';

/** A date-time in a request: an ISO 8601 string. */
export const DateTime = Type.String({ format: 'date-time' });

/** A date-time in a response: stores hand back `Date`s, serialized as ISO 8601 strings. */
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

export const ErrorBody = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(Type.Object({ message: Type.String(), path: Type.Optional(Type.String()) })),
    ),
  },
  { $id: 'ErrorBody', description: 'Every error answer has this body.' },
);

export const NoContent = Type.Unsafe<undefined>({ description: 'No body' });

/** The range of PostgreSQL's `integer`, the type of every serial id. */
export const INT4_MAX = 2147483647;
export const INT4_MIN = -2147483648;

/** Path ids that must be integers: a non-integer is a 400, a missing row a 404. */
export const IntegerId = Type.Integer({ minimum: INT4_MIN, maximum: INT4_MAX });
