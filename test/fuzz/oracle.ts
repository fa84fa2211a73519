/** The `name`s an error body may carry (compat.md, plus the statuses it leaves to us: 413, 429, 503). */
export const ERROR_NAMES = new Set([
  'ValidationError',
  'AuthenticationRequired',
  'NoAccessError',
  'NotFoundError',
  'NameExistsError',
  'ConflictError',
  'ContentTypeError',
  'PayloadTooLargeError',
  'RateLimitError',
  'ServiceUnavailableError',
  'InternalError',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SIGN_IN_KEYS = ['path', 'type', 'defaultHidden', 'options'];

/** Unleash's sign-in fields of a 401 (`path`, `type`, `defaultHidden`, `options`), when there. */
function signInProblems(body: Record<string, unknown>): string[] {
  if (!SIGN_IN_KEYS.some((k) => k in body)) return [];
  const options = body.options;
  const wellFormed =
    typeof body.path === 'string' &&
    body.type === 'password' &&
    typeof body.defaultHidden === 'boolean' &&
    Array.isArray(options) &&
    options.every(
      (o) =>
        isRecord(o) &&
        typeof o.type === 'string' &&
        typeof o.message === 'string' &&
        typeof o.path === 'string',
    );
  return wellFormed
    ? []
    : ["the 401's sign-in fields (path, type, defaultHidden, options) are not well formed"];
}

/**
 * What is wrong with an error body, by compat.md: `{ id, name, message, details? }`, and a 401 may
 * say how to sign in, as Unleash's does.
 */
function errorBodyProblems(text: string, status: number): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return ['the error body is not JSON'];
  }
  if (!isRecord(body)) return ['the error body is not a JSON object'];
  const problems: string[] = [];
  const allowed = ['id', 'name', 'message', 'details', ...(status === 401 ? SIGN_IN_KEYS : [])];
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length) problems.push(`the error body has keys besides ${allowed.join(', ')}: ${extra}`);
  if (status === 401) problems.push(...signInProblems(body));
  if (typeof body.id !== 'string' || !UUID.test(body.id)) problems.push('the error `id` is not a UUID');
  if (typeof body.name !== 'string' || !ERROR_NAMES.has(body.name)) {
    problems.push(`the error \`name\` ${JSON.stringify(body.name)} is not one of the known names`);
  }
  if (typeof body.message !== 'string' || body.message === '') problems.push('the error `message` is empty');
  if (body.details !== undefined) {
    const details = body.details;
    const wellFormed =
      Array.isArray(details) &&
      details.length > 0 &&
      details.every(
        (d) =>
          isRecord(d) &&
          typeof d.message === 'string' &&
          typeof d.path === 'string' &&
          Object.keys(d).every((k) => k === 'message' || k === 'path'),
      );
    if (!wellFormed) problems.push('the error `details` is not a non-empty array of { message, path }');
  }
  return problems;
}

const OFREP_CODES = new Set(['PARSE_ERROR', 'INVALID_CONTEXT', 'FLAG_NOT_FOUND']);

/**
 * OpenFeature's remote evaluation protocol answers its own failures (400, 404) with
 * `{key?, errorCode, errorDetails}`, as its providers read them; its other errors are ours.
 */
function isOfrepFailure(url: string, answer: Answer): boolean {
  if (!url.startsWith('/ofrep/') || (answer.status !== 400 && answer.status !== 404)) return false;
  try {
    const body: unknown = JSON.parse(answer.body);
    if (!isRecord(body) || typeof body.errorCode !== 'string' || !OFREP_CODES.has(body.errorCode))
      return false;
    const keys = Object.keys(body).every((k) => ['key', 'errorCode', 'errorDetails'].includes(k));
    return keys && typeof body.errorDetails === 'string';
  } catch {
    return false;
  }
}

/** Every rule an answer must keep whatever was asked: no 5xx, and errors in the contract's shape. */
export function answerProblems(method: string, url: string, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`the server answered ${answer.status}`);
  if (answer.status >= 400 && method !== 'HEAD' && !isOfrepFailure(url, answer)) {
    const type = String(answer.headers['content-type'] ?? '');
    if (!type.startsWith('application/json'))
      problems.push(`the error's content type is "${type}", not JSON`);
    problems.push(...errorBodyProblems(answer.body, answer.status));
  }
  return problems;
}
