import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ConstraintViolation,
  constraintViolation,
  describeDataException,
  isDatabaseUnavailable,
} from '../db/errors.js';
import { PoolExhaustedError } from '../db/pool.js';

export interface ErrorDetail {
  message: string;
  path?: string;
}

/** An error a client caused; rendered as `{ id, name, message, details? }` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    override readonly name: string,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }
}

export class ValidationError extends ApiError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'ValidationError', message, details);
  }
}

export class AuthenticationRequired extends ApiError {
  constructor(message = 'You must sign in or send a valid API token in the Authorization header.') {
    super(401, 'AuthenticationRequired', message);
  }
}

/**
 * No credentials, or credentials that name nobody: the caller has to sign in. Answered, when the
 * request sent no Authorization header (a browser), with how to sign in, as Unleash does.
 */
export class SignInRequired extends AuthenticationRequired {}

/** Unleash's fields of a 401 that tell a sign-in page what to show. */
export interface SignInDetails {
  /** Where the password form posts. */
  path: string;
  type: 'password';
  /** The password form is hidden: password sign-in is turned off. */
  defaultHidden: boolean;
  /** The other ways in (single sign-on), each a link for a button. */
  options: { type: string; message: string; path: string }[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Given by the app; read for every SignInRequired answer. */
    signInDetails?: () => SignInDetails;
  }
}

export class NoAccessError extends ApiError {
  constructor(message: string) {
    super(403, 'NoAccessError', message);
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string) {
    super(404, 'NotFoundError', message);
  }
}

/**
 * A 404 whose message says in which other project the thing asked for is. A caller who may not
 * see that project (a private one) gets `withoutProject` instead, which does not name it.
 */
export class NotFoundElsewhere extends NotFoundError {
  constructor(
    message: string,
    readonly project: string,
    readonly withoutProject: string,
  ) {
    super(message);
  }
}

export class NameExistsError extends ApiError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(409, 'NameExistsError', message, details);
  }
}

/** The resource changed under the request (a lost race with a concurrent change). */
export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, 'ConflictError', message);
  }
}

export class ContentTypeError extends ApiError {
  constructor(received: string | undefined) {
    super(
      415,
      'ContentTypeError',
      `This endpoint takes a JSON body: send the header "Content-Type: application/json" ` +
        `(you sent ${received ? `"${received}"` : 'none'}).`,
    );
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limit: number, why?: string) {
    super(
      413,
      'PayloadTooLargeError',
      `The request body is larger than the limit of ${limit} bytes${why ? `: ${why}` : ''}.`,
    );
  }
}

export class RateLimitError extends ApiError {
  constructor(
    message: string,
    /** Sent as the `Retry-After` header. */
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'RateLimitError', message);
  }
}

export class ServiceUnavailableError extends ApiError {
  constructor(
    message: string,
    /** Sent as the `Retry-After` header, when the server knows when to try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(503, 'ServiceUnavailableError', message);
  }
}

export function errorBody(error: ApiError, id: string = randomUUID()) {
  return {
    id,
    name: error.name,
    message: error.message,
    ...(error.details?.length ? { details: error.details } : {}),
  };
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldPath(httpPart: string | undefined, instancePath: string, extra?: string): string {
  const part = httpPart === 'querystring' ? 'query' : httpPart;
  const segments = instancePath.split('/').filter(Boolean);
  if (extra) segments.push(extra);
  const where = segments.join('.');
  if (part === 'body' || part === undefined) return where;
  return where ? `${part}.${where}` : part;
}

/** One detail per failing field, each saying what to fix. */
export function validationDetails(errors: AjvError[], part?: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let path: string;
    let message: string;
    switch (e.keyword) {
      case 'required':
        path = fieldPath(part, e.instancePath, String(e.params.missingProperty));
        message = `The \`${path}\` property is required.`;
        break;
      case 'additionalProperties':
        path = fieldPath(part, e.instancePath, String(e.params.additionalProperty));
        message = `The \`${path}\` property is not allowed here; remove it.`;
        break;
      case 'enum':
        path = fieldPath(part, e.instancePath);
        message = `The \`${path || part}\` property must be one of: ${(e.params.allowedValues as unknown[])
          .map((v) => JSON.stringify(v))
          .join(', ')}.`;
        break;
      default:
        path = fieldPath(part, e.instancePath);
        message = `The \`${path || part || 'body'}\` property ${e.message ?? 'is invalid'}.`;
    }
    if (seen.has(message)) continue;
    seen.add(message);
    details.push({ path: path || part || 'body', message });
  }
  return details;
}

/** A unique key taken is 409; a missing reference 404; removing what is still used 400. */
function fromViolation(v: ConstraintViolation): ApiError {
  const details = v.field ? [{ path: v.field, message: v.message }] : undefined;
  if (v.kind === 'duplicate') return new NameExistsError(v.message, details);
  if (v.kind === 'missing') return new NotFoundError(v.message);
  return new ValidationError(v.message);
}

function toApiError(
  error: FastifyError & { validation?: AjvError[]; validationContext?: string },
  bodyLimit: number,
): ApiError | null {
  if (error instanceof ApiError) return error;
  const violation = constraintViolation(error);
  if (violation) return fromViolation(violation);
  if (error instanceof PoolExhaustedError) {
    return new ServiceUnavailableError(`The server is busy: ${error.message}. Try again in a moment.`);
  }
  const refused = describeDataException(error);
  if (refused) return new ValidationError(refused);
  if (isDatabaseUnavailable(error)) {
    return new ServiceUnavailableError('The database cannot be reached right now: try again in a moment.');
  }
  if (error.validation) {
    const details = validationDetails(error.validation, error.validationContext);
    return new ValidationError(
      details.length === 1
        ? details[0]!.message
        : 'The request is not valid: see `details` for each problem.',
      details,
    );
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ValidationError(`The request body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError(bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ContentTypeError(undefined);
    case 'FST_ERR_HANDLER_TIMEOUT':
      return new ServiceUnavailableError(
        'The request did not finish in time: try again in a moment. A change it asked for may still ' +
          'be made, so read it back before sending it again.',
      );
  }
  if (error instanceof SyntaxError)
    return new ValidationError(`The request body is not valid JSON: ${error.message}`);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, 'ValidationError', error.message);
  }
  return null;
}

/** Answers `error` with the body of the contract: its own status when known, else 500 (logged). */
export function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // Routes taking a whole configuration have a body limit of their own.
  let known = toApiError(error, request.routeOptions.bodyLimit);
  // Unset on a public route: nothing of another project is named there.
  if (known instanceof NotFoundElsewhere && !request.visibleProjects?.sees(known.project)) {
    known = new NotFoundError(known.withoutProject);
  }
  const id = randomUUID();
  // A value only the database caught: answered 400, and logged, as a check before it is missing.
  if (describeDataException(error))
    request.log.warn({ err: error, errorId: id }, 'a value reached the database unchecked');
  if (known) {
    const retryAfter =
      known instanceof RateLimitError || known instanceof ServiceUnavailableError
        ? known.retryAfterSeconds
        : undefined;
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    const signIn =
      known instanceof SignInRequired && request.headers.authorization === undefined
        ? request.server.signInDetails?.()
        : undefined;
    reply.status(known.status).send({ ...errorBody(known, id), ...signIn });
    return;
  }
  request.log.error({ err: error, errorId: id }, 'unexpected error');
  reply.status(500).send({
    id,
    name: 'InternalError',
    message: `Something went wrong on the server. Quote the error id ${id} when you report it.`,
  });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(sendError);
}
