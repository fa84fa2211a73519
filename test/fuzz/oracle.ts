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

/** What is wrong with an error body, by compat.md: `{ id, name, message, details? }`. */
function errorBodyProblems(text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return ['the error body is not JSON'];
  }
  if (!isRecord(body)) return ['the error body is not a JSON object'];
  const problems: string[] = [];
  const extra = Object.keys(body).filter((k) => !['id', 'name', 'message', 'details'].includes(k));
  if (extra.length) problems.push(`the error body has keys besides id, name, message, details: ${extra}`);
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

/** Every rule an answer must keep whatever was asked: no 5xx, and errors in the contract's shape. */
export function answerProblems(method: string, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`the server answered ${answer.status}`);
  if (answer.status >= 400 && method !== 'HEAD') {
    const type = String(answer.headers['content-type'] ?? '');
    if (!type.startsWith('application/json'))
      problems.push(`the error's content type is "${type}", not JSON`);
    problems.push(...errorBodyProblems(answer.body));
  }
  return problems;
}
