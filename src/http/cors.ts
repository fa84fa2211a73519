import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import type { App } from './route.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: @fastify/cors leaves the route alone (no CORS headers, no `Vary: Origin`). */
    cors?: false;
  }
}

/**
 * What a browser may send with a cross-origin request to the SDK paths: the token, JSON bodies,
 * the ETag of the last answer, and the headers Unleash's SDKs add.
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-None-Match',
  'Unleash-AppName',
  'Unleash-InstanceId',
  'Unleash-Client-Spec',
  'Unleash-SDK',
  'Unleash-Connection-Id',
  'Unleash-Interval',
];

/** How long a browser may keep a preflight's answer (as Unleash); an answer's own headers still count. */
const PREFLIGHT_MAX_AGE_S = 86_400;

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

/** The SDK paths a page of another site may call with a token; the admin API is not one of them. */
function isSdkPath(url: string): boolean {
  for (const prefix of ['/api/frontend', '/api/client']) {
    if (url.startsWith(prefix)) {
      const next = url.charAt(prefix.length);
      if (next === '' || next === '/' || next === '?') return true;
    }
  }
  return url.startsWith('/edge/');
}

const OFF: FastifyCorsOptions = { origin: false };

/**
 * CORS for the SDK paths, with the allowed origins asked for on every request, so that a change
 * (start-up variable, then `POST /api/admin/ui-config/cors`) applies to the very next one. A
 * preflight is answered here, before credentials are looked at; an origin not allowed gets no
 * `Access-Control-Allow-Origin`, so the browser keeps the answer from the page. These paths take
 * tokens, never the session cookie, so no credentials are allowed. Other paths get no CORS headers
 * and their preflights fall through to the usual 401/404.
 */
export async function registerCors(app: App, allowedOrigins: () => readonly string[]): Promise<void> {
  let origins: readonly string[] | undefined;
  let options: FastifyCorsOptions = OFF;
  const optionsFor = (request: FastifyRequest): FastifyCorsOptions => {
    // Without an Origin it is no browser's cross-origin request (a server-side SDK, curl): its
    // answer needs no CORS headers, only the `Vary: Origin` the plugin adds anyway.
    if (request.headers.origin === undefined || !isSdkPath(request.url)) return OFF;
    const current = allowedOrigins();
    if (current !== origins) {
      origins = current;
      options = {
        origin: current.includes('*') ? '*' : [...current],
        methods: ['GET', 'HEAD', 'POST'],
        allowedHeaders: CORS_ALLOWED_HEADERS,
        exposedHeaders: ['ETag'],
        maxAge: PREFLIGHT_MAX_AGE_S,
        // An OPTIONS with an Origin but no Access-Control-Request-Method is no preflight: it gets
        // the 204 all the same, rather than a text/plain 400 outside the error contract.
        strictPreflight: false,
      };
    }
    return options;
  };
  // Routes off the SDK paths skip the plugin altogether. The preflight route it adds (`OPTIONS *`)
  // serves every path, so the delegator still tells the paths apart.
  app.addHook('onRoute', (route) => {
    if (route.method !== 'OPTIONS' && !isSdkPath(route.url)) route.config = { ...route.config, cors: false };
  });
  await app.register(cors, {
    hideOptionsRoute: true,
    delegator: (request, callback) => callback(null, optionsFor(request)),
  });
}
