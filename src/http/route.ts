import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Identity } from './identity.js';
import type { RoutePermission } from './permissions.js';
import type { ProjectVisibility } from './visibility.js';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Which credentials a path accepts, taken from its prefix. */
export type Audience = 'admin' | 'client' | 'frontend' | 'ofrep';

export function audienceOf(url: string): Audience | undefined {
  if (url.startsWith('/api/admin')) return 'admin';
  if (url.startsWith('/api/client')) return 'client';
  if (url.startsWith('/api/frontend')) return 'frontend';
  if (url.startsWith('/ofrep/')) return 'ofrep';
  return undefined;
}

/** The methods a route answers, as `onRoute` hooks see them (one or a list). */
export function methodsOf(route: { method: string | string[] }): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

/** A route that only reads (GET, and the HEAD Fastify adds beside it). */
export function isReadOnly(route: { method: string | string[] }): boolean {
  return methodsOf(route).every((m) => m === 'GET' || m === 'HEAD');
}

/** A route of the SDK side (client and frontend API, OpenFeature's remote evaluation). */
export function isSdkRoute(route: { url: string }): boolean {
  const audience = audienceOf(route.url);
  return audience === 'client' || audience === 'frontend' || audience === 'ofrep';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route. Absent: a public route (no credentials looked at).
     * Every /api route must declare one.
     */
    permission?: RoutePermission;
    audience?: Audience;
  }
  interface FastifyRequest {
    identity: Identity | null;
    /** The projects the caller may see; set on every route that declares a permission. */
    visibleProjects: ProjectVisibility;
  }
}

/** The identity of an authenticated route; the auth hook guarantees it is there. */
export function identityOf(request: { identity: Identity | null }): Identity {
  if (!request.identity) throw new Error('identityOf() used on a public route');
  return request.identity;
}
