import { findPrototypeKey, findUnstorableText, mayHoldUnstorableText } from './body-checks.js';
import { type ErrorDetail, ValidationError } from './errors.js';
import type { App } from './route.js';

export const BODY_LIMIT = 1024 * 1024;

/** For the few routes that take a whole configuration (imports): thousands of features. */
export const LARGE_BODY_LIMIT = 64 * 1024 * 1024;

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
 * Other content types are read and dropped, so routes without a body take any; routes with one
 * answer 415 from the auth hook before this runs.
 */
export function registerBodyParsers(app: App): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      const text = body as string;
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, (error, value) => {
        if (error) {
          const key = prototypeKeyIn(text);
          done(key ? refuse(key) : error, undefined);
          return;
        }
        const unstorable = mayHoldUnstorableText(text) ? findUnstorableText(value) : null;
        done(unstorable ? refuse(unstorable) : null, unstorable ? undefined : value);
      });
    },
  );
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, _body, done) => {
    done(null, undefined);
  });
}
