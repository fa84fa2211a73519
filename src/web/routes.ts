import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { App } from '../http/route.js';
import { isUiBuilt, UI_DIR } from './assets.js';

/** Answers a request with the UI's page; given to the not-found handler for deep links. */
export type AppPage = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

// Paths the server answers itself: an unknown path below them stays a JSON 404, never the page.
// `/assets/` too: a hashed file that is gone (an older build) must fail, not load as HTML.
const SERVER_PREFIXES = [
  '/api',
  '/auth',
  '/health',
  '/ready',
  '/internal-backstage',
  '/edge',
  '/invite',
  '/logout',
  '/assets',
];

function isServerPath(path: string): boolean {
  return path.startsWith('/docs') || SERVER_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

// The page loads only this server's scripts and styles; no other site may frame it; and a reset
// or invite link's token never leaves in a Referer.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

function setHeaders(response: { setHeader(name: string, value: string): unknown }, file: string): void {
  // Every file is also stored compressed: which copy is sent depends on Accept-Encoding.
  response.setHeader('vary', 'accept-encoding');
  // Vite names every file under assets/ by its content's hash: a new build never reuses a name.
  if (file.includes('/assets/')) {
    response.setHeader('cache-control', 'public, max-age=31536000, immutable');
    return;
  }
  response.setHeader('cache-control', 'no-cache');
  if (/\.html(\.gz|\.br)?$/.test(file)) {
    for (const [name, value] of Object.entries(PAGE_HEADERS)) response.setHeader(name, value);
  }
}

/**
 * The web admin UI at `/`: its built files (and their pre-compressed copies), and its page for
 * any other GET of a path that is not the server's, so that deep links work. Without a build
 * (`npm run build` was not run) the server serves the API alone and says so.
 */
export async function webRoutes(app: App, ctx: AppContext, dir = UI_DIR): Promise<AppPage | undefined> {
  if (!isUiBuilt(dir)) {
    ctx.log.warn({ dir }, 'The web UI is not built (npm run build): only the API is served');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: false,
    preCompressed: true,
    globIgnore: ['**/*.gz', '**/*.br'],
    cacheControl: false,
    setHeaders,
  });
  return (request, reply) => {
    const path = request.url.split('?')[0]!;
    if ((request.method !== 'GET' && request.method !== 'HEAD') || isServerPath(path)) return undefined;
    return reply.sendFile('index.html');
  };
}
