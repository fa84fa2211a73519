interface PostgresError {
  code: string;
  table?: string;
  detail?: string;
}

function postgresError(error: unknown): PostgresError | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? (error as PostgresError) : null;
}

/** PostgreSQL's unique_violation: two requests raced for the same name and the other one won. */
export function isUniqueViolation(error: unknown): boolean {
  return postgresError(error)?.code === '23505';
}

/**
 * Runs `write`, a transaction that checks a unique name is free and then inserts it. When another
 * request took the name between that check and the insert, the database refuses the insert and
 * `check` runs again, outside the failed transaction: it now sees the winner and throws the same
 * friendly error a later request gets. Should it find nothing (the clash was on another key), the
 * database's error goes on to the generic answer.
 */
export async function checkAgainOnDuplicate<T>(
  write: () => Promise<T>,
  check: () => Promise<unknown>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) await check();
    throw error;
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The database could not be reached or is going away: connection errors, a server shutting down
 * or starting up (class 08, 57P01–57P03), or a pool that lost its connection. The request did not
 * fail on its merits; it may be tried again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') {
    return error instanceof Error && /Connection terminated|connection (?:is )?closed/i.test(error.message);
  }
  return UNREACHABLE.has(code) || code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code);
}

/** A serialization failure or a deadlock: the transaction did nothing and may simply run again. */
export function isRetryable(error: unknown): boolean {
  const code = postgresError(error)?.code;
  return code === '40001' || code === '40P01';
}

/**
 * The database refused the data itself (a value it cannot store, a constraint it enforces), as
 * opposed to failing to run the statement at all: the same rows would fail again, other rows not.
 */
export function isDataError(error: unknown): boolean {
  const code = postgresError(error)?.code;
  return code !== undefined && (code.startsWith('22') || code.startsWith('23'));
}

/** What a data exception (SQLSTATE class 22) says about the request's values, by code. */
const DATA_EXCEPTIONS: Record<string, string> = {
  '22001': 'A value in the request is longer than it may be.',
  '22003': 'A number in the request is out of range.',
  '22007': 'A date or time in the request is not valid.',
  '22008': 'A date or time in the request is out of range.',
  '22021': 'Text in the request holds a character that cannot be stored, such as NUL (\\u0000).',
  '22P02': 'A value in the request is not written the way it should be.',
  '22P05': 'Text in the request holds a character that cannot be stored, such as NUL (\\u0000).',
};

/**
 * A value the database refused as data (SQLSTATE class 22: out of range, not valid text, a date
 * that does not exist), described for the client who sent it; null for anything else. Requests are
 * checked before they reach the database, so this is the safety net for a check that is missing.
 */
export function describeDataException(error: unknown): string | null {
  const code = postgresError(error)?.code;
  if (!code?.startsWith('22')) return null;
  return DATA_EXCEPTIONS[code] ?? 'A value in the request cannot be stored as it is.';
}

// What a row of each table is called in messages; other tables read as their name, singular.
const NOUNS: Record<string, string> = {
  api_tokens: 'API token',
  context_fields: 'context field',
  feature_environments: "feature's environment",
  feature_strategies: 'strategy',
  feature_strategy_segments: "strategy's segment",
  feature_tags: "feature's tag",
  personal_access_tokens: 'personal access token',
  project_environments: "project's environment",
  public_signup_tokens: 'invite link',
  role_permissions: "role's permission",
  tag_types: 'tag type',
};

function noun(table: string | undefined): string {
  if (!table) return 'row';
  return NOUNS[table] ?? table.replace(/_/g, ' ').replace(/s$/, '');
}

// Who a row of a link table stands for when it keeps another row in use: a segment is used by a
// strategy (through feature_strategy_segments), not by "a strategy's segment".
const USERS: Record<string, string> = {
  feature_environments: 'feature',
  feature_strategy_segments: 'strategy',
  feature_tags: 'feature',
  group_role: 'group',
  group_user: 'group',
  project_environments: 'project',
  public_signup_token_users: 'invite link',
  role_permissions: 'role',
  role_user: 'user',
};

function user(table: string): string {
  return USERS[table] ?? noun(table);
}

function camel(column: string): string {
  return column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** `Key (lower(name))=(x) already exists.` → columns ['name'], value 'x'. */
function keyOf(detail: string | undefined): { columns: string[]; value: string } | null {
  const match = /^Key \((.+)\)=\((.*)\) /.exec(detail ?? '');
  if (!match) return null;
  const columns = match[1]!.split(', ').map((c) => camel(c.replace(/^\w+\((\w+)\)$/, '$1')));
  return { columns, value: match[2]! };
}

/** ` with the id 5` for an id, ` "x"` for a name, ` (simple, x)` for a key of several columns. */
function named(key: { columns: string[]; value: string } | null): string {
  if (!key) return '';
  if (key.columns.length > 1) return ` (${key.value})`;
  return /^id$|Id$/.test(key.columns[0]!) ? ` with the id ${key.value}` : ` "${key.value}"`;
}

export interface ConstraintViolation {
  /** `duplicate`: a unique key taken; `missing`: a reference to a row that does not exist;
   * `in-use`: removing a row others still reference. */
  kind: 'duplicate' | 'missing' | 'in-use';
  message: string;
  /** The API name of the field at fault, when the key names one. */
  field?: string;
}

/**
 * A constraint the database enforced, described for the client who broke it (the HTTP layer turns
 * it into 409, 404 or 400). Anything else is not the client's doing: null.
 */
export function constraintViolation(error: unknown): ConstraintViolation | null {
  const e = postgresError(error);
  if (!e) return null;
  const key = keyOf(e.detail);
  const field = key?.columns.at(-1);
  if (e.code === '23505') {
    const what = key ? ` with the ${key.columns.join(' and ')} "${key.value}"` : '';
    return { kind: 'duplicate', message: `There is already a ${noun(e.table)}${what}.`, field };
  }
  if (e.code === '23503') {
    const referenced = /in table "(\w+)"/.exec(e.detail ?? '')?.[1];
    const referencing = /from table "(\w+)"/.exec(e.detail ?? '')?.[1];
    if (referencing) {
      return {
        kind: 'in-use',
        message: `The ${noun(e.table)}${named(key)} is still used by a ${user(referencing)}: remove it from there first.`,
      };
    }
    // Every path checks what it refers to before writing: what is missing now was there then.
    return {
      kind: 'missing',
      message: `There is no ${noun(referenced)}${named(key)} (any more: it may have been deleted a moment ago).`,
      field,
    };
  }
  return null;
}

/** Errors of deferred writes (`Transaction.deferWrite`): they surface at a later statement. */
const deferredFailures = new WeakSet<object>();

/** Marks the error of a deferred write, which may surface in another change's statement. */
export function asDeferredWriteFailure(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) deferredFailures.add(error);
  return error;
}

/** Whether `error` came from a write some earlier change of the transaction deferred. */
export function failedInDeferredWrite(error: unknown): boolean {
  return typeof error === 'object' && error !== null && deferredFailures.has(error);
}
