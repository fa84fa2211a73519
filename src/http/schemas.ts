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
    // How to sign in, with a 401 to a caller that sent no Authorization header, as Unleash tells it.
    path: Type.Optional(Type.String({ description: '401 only: where the password sign-in form posts' })),
    type: Type.Optional(Type.String({ description: '401 only: `password`' })),
    defaultHidden: Type.Optional(
      Type.Boolean({ description: '401 only: password sign-in is turned off, so its form is hidden' }),
    ),
    options: Type.Optional(
      Type.Array(Type.Object({ type: Type.String(), message: Type.String(), path: Type.String() }), {
        description: '401 only: the other ways to sign in (OpenID Connect), each a link to follow',
      }),
    ),
  },
  {
    $id: 'ErrorBody',
    description:
      'Every error answer has this body; a 401 to a caller without credentials also says how to sign in.',
  },
);

export const NoContent = Type.Unsafe<undefined>({ description: 'No body' });

/**
 * The most names one batch request may list (archive, revive, delete, stale): each name is a row
 * changed and an audit event written in one transaction, which holds back other writers (on the
 * embedded database, every other request) while it runs. A thousand takes well under a second.
 */
export const MAX_BATCH_NAMES = 1000;

/**
 * The most operations one JSON Patch may hold. A patch edits one feature or one variant list,
 * whose fields and (at most 100) variants a hundred operations cover; larger rewrites send the
 * whole resource with PUT.
 */
export const MAX_PATCH_OPERATIONS = 100;

/**
 * The most items one list of an import document may hold (features, strategies, tags…). An import
 * is one transaction; 1,000 features take about a second, so this bounds one at well under a
 * minute, and the document at the 64 MiB the import routes accept.
 */
export const MAX_IMPORT_ITEMS = 50_000;

/** The range of PostgreSQL's `integer`, the type of every serial id. */
export const INT4_MAX = 2147483647;
export const INT4_MIN = -2147483648;

/** Path ids that must be integers: a non-integer is a 400, a missing row a 404. */
export const IntegerId = Type.Integer({ minimum: INT4_MIN, maximum: INT4_MAX });
