import type { App } from './route.js';

export const BODY_LIMIT = 1024 * 1024;

/** For the few routes that take a whole configuration (imports): thousands of features. */
export const LARGE_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * JSON bodies through Fastify's own (prototype-poisoning safe) parser, except that an empty body
 * is "no body": `POST …/on` with a JSON content type and nothing after it is fine. Other content
 * types are read and dropped, so routes without a body take any; routes with one answer 415
 * from the auth hook before this runs.
 */
export function registerBodyParsers(app: App): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      if (typeof body === 'string' && body.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, body as string, done);
    },
  );
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, _body, done) => {
    done(null, undefined);
  });
}
