import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError, errorBody, ValidationError } from './errors.js';
import type { App } from './route.js';

/** A request line and headers past Node's limit (`--max-http-header-size`, 16 KiB by default). */
export class RequestHeadersTooLargeError extends ApiError {
  constructor() {
    super(
      431,
      'RequestHeadersTooLargeError',
      `The request line and headers are larger than the limit of ${http.maxHeaderSize} bytes: ` +
        'shorten the URL or the headers.',
    );
  }
}

/** A request whose headers or body did not arrive within Node's `headersTimeout`/`requestTimeout`. */
export class RequestTimeoutError extends ApiError {
  constructor() {
    super(408, 'RequestTimeoutError', 'The request did not arrive in time: send it again.');
  }
}

interface ParserError extends Error {
  code?: string;
  /** What llhttp found wrong, as Node gives it (`Invalid method encountered`). */
  reason?: string;
}

function describe(error: ParserError): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW') return new RequestHeadersTooLargeError();
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new RequestTimeoutError();
  const reason = error.reason ?? error.message;
  return new ValidationError(`The request is not valid HTTP${reason ? ` (${reason})` : ''}.`);
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses before Fastify sees it (a
 * request line or headers too large, bytes that are not HTTP, a timeout) is answered with the
 * error body of the contract instead of Fastify's own, and its connection is closed, as Node does:
 * what follows on it cannot be read.
 */
export function answerClientError(this: FastifyInstance, error: ParserError, socket: Socket): void {
  // The client is gone: there is no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = describe(error);
  this.log.debug({ err: error }, 'a request the HTTP parser refused');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(known));
  socket.end(
    `HTTP/1.1 ${known.status} ${http.STATUS_CODES[known.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/**
 * An HTTP/1.1 request without a Host header is a 400 with the error body of the contract. Node
 * answers it itself, with an empty body, unless its `requireHostHeader` is off, as the app
 * turns it: this hook, the first, says it instead.
 */
export function requireHostHeader(app: App): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const needsHost = request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor === 1;
    done(
      needsHost && request.headers.host === undefined
        ? new ValidationError('An HTTP/1.1 request needs a Host header.')
        : undefined,
    );
  });
}
