import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import {
  type ErrorDetail,
  PayloadTooLargeError,
  ServiceUnavailableError,
  ValidationError,
} from '../errors.js';
import { holdsAnywhere, type Permission } from '../permissions.js';
import type { App } from '../route.js';
import { findPrototypeKey, findUnstorableText, mayHoldUnstorableText } from './checks.js';

export const BODY_LIMIT = 1024 * 1024;

/** For the few routes that take a whole configuration (imports): thousands of features. */
export const LARGE_BODY_LIMIT = 64 * 1024 * 1024;

/** How long a caller refused while another large body is read is told to wait. */
const LARGE_BODY_RETRY_SECONDS = 5;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may send this route a body up to LARGE_BODY_LIMIT: callers holding one of these
     * permissions anywhere (an import's own checks come later, with the body); anyone else is held
     * to BODY_LIMIT, so that a body is only read at length for someone who may use it.
     */
    largeBody?: readonly Permission[];
  }
}

/** The body limit of this caller on this route; the route's permission is checked by now. */
function limitOf(request: FastifyRequest): { limit: number; refused?: string } {
  const allowed = request.routeOptions.config.largeBody;
  if (!allowed) return { limit: BODY_LIMIT };
  if (request.identity && holdsAnywhere(request.identity, allowed)) return { limit: LARGE_BODY_LIMIT };
  return {
    limit: BODY_LIMIT,
    refused: `only callers who may import send up to ${LARGE_BODY_LIMIT} bytes here`,
  };
}

/** The turn of one request at reading a large body: taken when free, given back once. */
interface Turn {
  take(): boolean;
  giveBack(): void;
}

/**
 * Reads a body as text up to `limit` bytes: a declared length over it is refused before a byte is
 * read (413), and so is a body that grows past it. Past BODY_LIMIT the body needs the `turn`:
 * refused (503) when another large body has it.
 */
function readText(
  request: FastifyRequest,
  payload: Readable,
  turn: Turn,
  done: (error: Error | null, text?: string) => void,
): void {
  const { limit, refused } = limitOf(request);
  const tooLarge = () => new PayloadTooLargeError(limit, refused);
  const busy = () =>
    new ServiceUnavailableError(
      `Another large request body (over ${BODY_LIMIT} bytes) is being read: send this one again in a few seconds.`,
      LARGE_BODY_RETRY_SECONDS,
    );
  const declared = Number(request.headers['content-length']);
  const refusal = declared > limit ? tooLarge() : declared > BODY_LIMIT && !turn.take() ? busy() : null;
  if (refusal) {
    done(refusal);
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error: Error | null, text?: string) => {
    if (finished) return;
    finished = true;
    payload.off('data', onData);
    payload.off('end', onEnd);
    payload.off('error', onError);
    payload.off('close', onClose);
    request.signal.removeEventListener('abort', onAbort);
    done(error, text);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) finish(tooLarge());
    else if (received > BODY_LIMIT && !turn.take()) finish(busy());
    else chunks.push(chunk);
  };
  const onEnd = () => finish(null, Buffer.concat(chunks, received).toString('utf8'));
  const onError = (error: Error & { statusCode?: number }) => {
    error.statusCode ??= 400;
    finish(error);
  };
  // Closed before its end: the client went away, and nothing will read the answer.
  const onClose = () => onError(new Error('The request body was cut short: the connection closed.'));
  // Called before the timeout's answer is sent: the turn is given back at once, and this answer
  // comes after that one, as any late parse would.
  const onAbort = () => {
    payload.off('data', onData);
    turn.giveBack();
    const reason: unknown = request.signal.reason;
    setImmediate(() => (reason instanceof Error ? onError(reason) : onClose()));
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.on('close', onClose);
  // The request timed out (503 sent) or its client left: what is still to come is not read.
  request.signal.addEventListener('abort', onAbort);
  // Gone already, while the hooks before this ran: no event will say so, and the turn is given back.
  if (payload.destroyed) onClose();
}

function refuse(detail: ErrorDetail): ValidationError {
  return new ValidationError(detail.message, [detail]);
}

/** Why Fastify's parser refused JSON text that JSON.parse accepts: a key reaching a prototype. */
function prototypeKeyIn(text: string): ErrorDetail | null {
  try {
    return findPrototypeKey(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * JSON bodies through Fastify's own (prototype-poisoning safe) parser, except that an empty body
 * is "no body": `POST …/on` with a JSON content type and nothing after it is fine. A body refused
 * for a `__proto__` key, or holding text the database cannot store, is a 400 naming the field.
 * Bodies are read up to the caller's limit (see `largeBody`), and one body over BODY_LIMIT at a
 * time is read and parsed: tens of MiB hold the event loop and memory for seconds, so a second one
 * waits its turn (503 with Retry-After) rather than adding to both.
 * Other content types are read and dropped, so routes without a body take any; routes with one
 * answer 415 from the auth hook before this runs.
 */
export function registerBodyParsers(app: App): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  let largeBodyTaken = false;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request, payload, done) => {
    let holding = false;
    const turn: Turn = {
      take() {
        if (!holding && !largeBodyTaken) holding = largeBodyTaken = true;
        return holding;
      },
      giveBack() {
        if (holding) holding = largeBodyTaken = false;
      },
    };
    const answer = (error: Error | null, value?: unknown) => {
      turn.giveBack();
      done(error, value);
    };
    readText(request, payload, turn, (error, text) => {
      if (error || text === undefined || text.trim() === '') {
        answer(error, undefined);
        return;
      }
      parseJson(request, text, (error, value) => {
        if (error) {
          const key = prototypeKeyIn(text);
          answer(key ? refuse(key) : error, undefined);
          return;
        }
        const unstorable = mayHoldUnstorableText(text) ? findUnstorableText(value) : null;
        answer(unstorable ? refuse(unstorable) : null, unstorable ? undefined : value);
      });
    });
  });
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, _body, done) => {
    done(null, undefined);
  });
}
