import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { addressKey, WindowCounter } from '../http/rate-limit.js';
import type { App } from '../http/route.js';
import { parseCookies, sessionCookie } from '../identity/sessions.js';
import { SignInFailure } from './failures.js';
import { sendFailurePage } from './pages.js';
import { CALLBACK_PATH, finishSignIn, LOGIN_PATH, LOGIN_TTL_SECONDS, startSignIn } from './service.js';

/** Holds the state of the sign-in this browser began, until the provider sends it back. */
const STATE_COOKIE = 'flagpole-oidc-state';

// A person needs a few tries; each one stores a row until it expires, so a script may not make many.
const START_LIMIT = { max: 30, windowMs: 10 * 60 * 1000 };

function stateCookie(state: string, secure: boolean): string {
  // Lax: the provider sends the browser back with a top-level GET from its own site.
  return `${STATE_COOKIE}=${state}; Path=/auth/oidc; Max-Age=${LOGIN_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

function clearedStateCookie(secure: boolean): string {
  return `${STATE_COOKIE}=; Path=/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

function rawQuery(request: FastifyRequest): URLSearchParams {
  const at = request.url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
}

/**
 * Sign-in through the OpenID Connect provider of the OIDC settings (E6), for browsers: both paths
 * answer redirects, and a failure answers a page saying what happened (and logs it at warn). They
 * are not in the API document: they are pages to navigate to, not API operations.
 */
export function oidcRoutes(app: App, ctx: AppContext): void {
  const secure = ctx.config.unleashUrl.startsWith('https://');
  const starts = new WindowCounter(START_LIMIT);

  function fail(reply: FastifyReply, error: unknown, extraCookie?: string): FastifyReply {
    if (!(error instanceof SignInFailure)) throw error;
    ctx.log.warn({ code: error.code, detail: error.detail }, `OIDC sign-in failed: ${error.code}`);
    if (extraCookie) reply.header('set-cookie', extraCookie);
    return sendFailurePage(reply, error);
  }

  // No HEAD: a link preview must not begin sign-ins. Answers are never cached: each one is its own.
  app.get(LOGIN_PATH, { schema: { hide: true }, exposeHeadRoute: false }, async (request, reply) => {
    try {
      const key = addressKey(request.ip);
      const wait = starts.retryAfter(key);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new SignInFailure(
          'too-many-attempts',
          `Too many sign-ins were begun from your address: try again in ${wait} seconds.`,
          `sign-in starts from ${key} over the limit`,
        );
      }
      starts.count(key);
      const redirect = rawQuery(request).getAll('redirect');
      if (redirect.length > 1) {
        throw new SignInFailure(
          'bad-redirect',
          'Give at most one page to return to after signing in.',
          'several redirect parameters',
        );
      }
      const { state, location } = await startSignIn(ctx, ctx.oidc, redirect[0]);
      reply.header('set-cookie', stateCookie(state, secure)).header('cache-control', 'no-store');
      return reply.redirect(location, 302);
    } catch (error) {
      return fail(reply, error);
    }
  });

  app.get(CALLBACK_PATH, { schema: { hide: true }, exposeHeadRoute: false }, async (request, reply) => {
    const browserState = parseCookies(request.headers.cookie)[STATE_COOKIE];
    try {
      const { sessionId, redirect } = await finishSignIn(ctx, ctx.oidc, rawQuery(request), browserState);
      reply
        .header('set-cookie', [sessionCookie(sessionId, secure), clearedStateCookie(secure)])
        .header('cache-control', 'no-store');
      return reply.redirect(redirect, 302);
    } catch (error) {
      return fail(reply, error, browserState === undefined ? undefined : clearedStateCookie(secure));
    }
  });
}
