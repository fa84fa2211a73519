import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Identity } from './identity.js';
import type { RoutePermission } from './permissions.js';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Which credentials a path accepts, taken from its prefix. */
export type Audience = 'admin' | 'client' | 'frontend';

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
  }
}

/** The identity of an authenticated route; the auth hook guarantees it is there. */
export function identityOf(request: { identity: Identity | null }): Identity {
  if (!request.identity) throw new Error('identityOf() used on a public route');
  return request.identity;
}
