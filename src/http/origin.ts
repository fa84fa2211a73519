import type { FastifyRequest } from 'fastify';
import { NoAccessError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public route that must only be called from Flagpole's own pages (sign-in, sign-out): a
     * form on another site must not sign a browser in or out.
     */
    sameOriginOnly?: boolean;
  }
}

// `none`: the user typed the address or used a bookmark; not a page of another site.
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Changes only: a cross-site read cannot be seen by the page that made it. */
export function isUnsafeMethod(method: string): boolean {
  return UNSAFE_METHODS.has(method);
}

function quoted(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
}

/** The Origin names this server: as the request reached it (its Host), or its public URL. */
function isOwnOrigin(origin: string, host: string, publicOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a redirect) and anything else that is no origin
  }
  if (url.origin === publicOrigin) return true;
  try {
    // Written as the Origin's scheme would write it, so that `localhost:80` and `localhost` match.
    return new URL(`${url.protocol}//${host}`).host === url.host;
  } catch {
    return false;
  }
}

const USE_A_TOKEN =
  "Changes with a signed-in session are accepted only from Flagpole's own pages; a script should " +
  'send an API token or a personal access token in the Authorization header.';

/**
 * A browser sends the session cookie along with a form or `fetch` posted from another site of
 * the same registrable domain (SameSite=Lax lets it), so a change authenticated by the cookie
 * alone must come from this server's own pages. Browsers say where a request comes from
 * (`Sec-Fetch-Site`, `Origin`); a request with neither is not a browser's cross-site request
 * (curl, scripts) and passes.
 */
export function assertSameOrigin(request: FastifyRequest, publicOrigin: string): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH_SITES.has(site.toLowerCase())) {
    throw new NoAccessError(
      `This request came from another site (Sec-Fetch-Site: ${quoted(site)}). ${USE_A_TOKEN}`,
    );
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, request.host, publicOrigin)) {
    throw new NoAccessError(
      `This request came from another site (Origin: ${quoted(origin)}), not from this server. ${USE_A_TOKEN}`,
    );
  }
}
