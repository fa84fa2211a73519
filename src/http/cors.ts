import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './route.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set at start: the routes of the SDK paths, and the one route that takes every preflight. */
    cors?: 'sdk' | 'preflight';
  }
}

/**
 * What a browser may send with a cross-origin request to the SDK paths: the token, JSON bodies,
 * the ETag of the last answer, and the headers Unleash's SDKs add.
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'X-API-Key',
  'Content-Type',
  'If-None-Match',
  'Unleash-AppName',
  'Unleash-InstanceId',
  'Unleash-Client-Spec',
  'Unleash-SDK',
  'Unleash-Connection-Id',
  'Unleash-Interval',
];

const ALLOWED_HEADERS = CORS_ALLOWED_HEADERS.join(', ');
const ALLOWED_METHODS = 'GET, HEAD, POST';
/** How long a browser may keep a preflight's answer (as Unleash); an answer's own headers still count. */
const PREFLIGHT_MAX_AGE_S = '86400';

/**
 * `*`, or an origin written as browsers send it: `scheme://host[:port]`, nothing after, the host
 * in lower case and a default port left out (`https://a.example` but not `https://a.example:443`).
 * No wildcards inside one: a browser never sends `https://*.example.com`, so it would match nothing.
 */
export function isOriginEntry(value: string): boolean {
  if (value === '*') return true;
  if (value.includes('*')) return false;
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/**
 * The SDK paths a page of another site may call with a token (OpenFeature's remote evaluation
 * among them); the admin API is not one of them.
 */
function isSdkPath(url: string): boolean {
  for (const prefix of ['/api/frontend', '/api/client']) {
    if (url.startsWith(prefix)) {
      const next = url.charAt(prefix.length);
      if (next === '' || next === '/' || next === '?') return true;
    }
  }
  return url.startsWith('/edge/') || url.startsWith('/ofrep/');
}

/**
 * CORS for the SDK paths, with the allowed origins read on every request, so that a change
 * (start-up variable, then `POST /api/admin/ui-config/cors`) applies to the very next one. A
 * preflight is answered here, before credentials are looked at; an origin not allowed gets no
 * `Access-Control-Allow-Origin`, so the browser keeps the answer from the page. These paths take
 * tokens, never the session cookie, so no credentials are allowed. Other paths get no CORS headers
 * and their preflights fall through to the usual 401/404.
 *
 * Our own hook rather than a plugin's: it runs on every SDK request, and a plugin that rebuilds its
 * options for each one cost a tenth of the SDK path.
 */
export function registerCors(app: App, allowedOrigins: () => readonly string[]): void {
  const allowOrigin = (origin: string): string | undefined => {
    const current = allowedOrigins();
    if (current.includes('*')) return '*';
    return current.includes(origin) ? origin : undefined;
  };
  app.addHook('onRoute', (route) => {
    if (route.method !== 'OPTIONS' && isSdkPath(route.url)) route.config = { ...route.config, cors: 'sdk' };
  });
  // First among the onRequest hooks: a preflight carries no credentials, and an SDK's 401 must
  // reach the page with the headers that let it read it.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const mode = request.routeOptions.config.cors;
    if (mode === undefined) return done();
    // Whether the answer carries CORS headers depends on the Origin: caches must keep them apart.
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || (mode === 'preflight' && !isSdkPath(request.url))) return done();
    const allowed = allowOrigin(origin);
    if (allowed !== undefined) reply.header('access-control-allow-origin', allowed);
    reply.header('access-control-expose-headers', 'ETag');
    if (mode === 'sdk') return done();
    // Also without Access-Control-Request-Method: the 204 all the same, rather than a 400 outside
    // the error contract. A disallowed origin gets it too, without the header a browser needs.
    reply
      .code(204)
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', PREFLIGHT_MAX_AGE_S)
      .header('content-length', '0')
      .send();
  });
  // Every preflight lands here; the hook above answers those of the SDK paths.
  app.options('*', { schema: { hide: true }, config: { cors: 'preflight' } }, (_request, reply) => {
    reply.callNotFound();
  });
}
