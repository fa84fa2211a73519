import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  ContentTypeError,
  NoAccessError,
  NotFoundError,
  SignInRequired,
  sendError,
  ValidationError,
} from './errors.js';
import type { Identity } from './identity.js';
import { assertSameOrigin, isUnsafeMethod } from './origin.js';
import { assertPermission } from './permissions.js';
import { type App, type Audience, audienceOf } from './route.js';
import { hiddenProject, type ProjectVisibility, projectVisibility } from './visibility.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For routes whose path names a project's resource without naming the project (such as
     * `/api/admin/features/:featureName/tags`): the project the permission is checked in.
     * Undefined (e.g. the resource does not exist) leaves only instance-wide grants to pass. A
     * project hidden from the caller is answered as absent (404), as a project in the path is.
     */
    projectOf?: (request: FastifyRequest) => string | undefined | Promise<string | undefined>;
    /**
     * With `projectOf`: the answer when what the path names is in a project hidden from the caller,
     * the same as when it does not exist (the project's id is not in the path and must not show).
     */
    notFound?: (request: FastifyRequest) => Error;
  }
}

/** Who a request's credentials name; null when they name nobody. Given by the app. */
export type IdentityResolver = (request: FastifyRequest) => Promise<Identity | null>;

function assertAudience(identity: Identity, audience: Audience): void {
  const tokenType = identity.kind === 'token' ? identity.tokenType : 'user';
  const accepted: Record<Audience, string[]> = {
    admin: ['admin', 'user'],
    client: ['client'],
    frontend: ['frontend'],
    ofrep: ['frontend', 'client'],
  };
  if (accepted[audience].includes(tokenType)) return;
  const where = { admin: '/api/admin', client: '/api/client', frontend: '/api/frontend', ofrep: '/ofrep' }[
    audience
  ];
  const needs = {
    admin: 'an admin API token, a personal access token or a signed-in session',
    client: 'a client (backend) API token',
    frontend: 'a frontend API token',
    ofrep: 'a frontend or client API token',
  }[audience];
  throw new NoAccessError(`${where} needs ${needs}; the credentials sent are of another kind.`);
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function pathScope(params: unknown): { project?: string; environment?: string } {
  const p = (params ?? {}) as Record<string, string | undefined>;
  return { project: p.projectId, environment: p.environment };
}

/**
 * The first steps of every request, in the order of the contract: credentials (401), then where
 * a change made with the session cookie comes from and the route's permission for the project
 * and environment in the path (403), then a project in the path the caller may not see (404, as
 * Unleash answers it after the permission), then the content type of a body (415). Body
 * validation (400) follows in Fastify's own validation step. `publicOrigin` is the origin of
 * UNLEASH_URL; `privateProjects` gives the ids of the projects in the `private` mode.
 */
export function registerAuthentication(
  app: App,
  resolveIdentity: IdentityResolver,
  publicOrigin: string,
  privateProjects: () => ReadonlySet<string>,
): void {
  app.decorateRequest('identity', null);
  // Set for every route that declares a permission (every /api route), before its handler runs.
  app.decorateRequest('visibleProjects', null as unknown as ProjectVisibility);

  app.addHook('onRoute', (route) => {
    const audience = audienceOf(route.url);
    if (!audience) return;
    route.config = { ...route.config, audience };
    if (route.config.permission === undefined) {
      throw new Error(
        `${route.method} ${route.url} must declare config.permission (use 'NONE' for any caller)`,
      );
    }
  });

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    const method = request.method;
    if (config.sameOriginOnly) assertSameOrigin(request, publicOrigin);
    if (config.permission !== undefined) {
      const identity = await resolveIdentity(request);
      if (!identity) throw new SignInRequired();
      // The cookie goes along with requests other sites make; an Authorization header does not.
      if (identity.kind === 'user' && identity.via === 'session' && isUnsafeMethod(method)) {
        assertSameOrigin(request, publicOrigin);
      }
      if (config.audience) assertAudience(identity, config.audience);
      request.identity = identity;
      request.visibleProjects = projectVisibility(identity, privateProjects());
      const scope = pathScope(request.params);
      const named = scope.project !== undefined;
      if (config.projectOf && !named) scope.project = await config.projectOf(request);
      assertPermission(identity, config.permission, scope);
      if (scope.project !== undefined && !request.visibleProjects.sees(scope.project)) {
        if (named) throw hiddenProject(scope.project);
        throw (
          config.notFound?.(request) ?? new NotFoundError(`There is nothing at ${request.url.split('?')[0]}.`)
        );
      }
    }
    if (
      (method === 'POST' || method === 'PUT' || method === 'PATCH') &&
      request.routeOptions.schema?.body !== undefined &&
      !isJson(request.headers['content-type'])
    ) {
      throw new ContentTypeError(request.headers['content-type']);
    }
  });
}

/**
 * Unknown paths: under /api the caller must still be authenticated first (401 before 404).
 * `page` may answer first: the web UI's page for the paths that are its own (deep links).
 */
export function registerNotFound(
  app: App,
  resolveIdentity: IdentityResolver,
  page?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined,
): void {
  app.setNotFoundHandler(async (request, reply) => {
    const answered = page?.(request, reply);
    if (answered) return answered;
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/') || path === '/api') {
      if (!(await resolveIdentity(request))) throw new SignInRequired();
    }
    throw new NotFoundError(`The path ${request.method} ${path} does not exist.`);
  });
}

function clipped(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

function badUrl(error: FastifyError, path: string): Error {
  if (error.code === 'FST_ERR_BAD_URL') {
    return new ValidationError(
      `The path ${clipped(path)} is not a valid URL: a percent-encoded part of it does not decode to UTF-8 text.`,
    );
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new ValidationError(
      `The path ${clipped(path)} has a part longer than any name or id can be: shorten it.`,
    );
  }
  return error;
}

/**
 * Fastify's `frameworkErrors`: a path it cannot route, because a segment does not decode (`%FF`)
 * or is too long, answered with the error body of the contract. Under /api the caller must be
 * authenticated first, as for an unknown path.
 */
export function answerUnroutable(resolveIdentity: IdentityResolver) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const path = request.url.split('?')[0]!;
    const authenticated =
      path.startsWith('/api/') || path === '/api' ? resolveIdentity(request) : Promise.resolve(true);
    authenticated
      .then((identity) => {
        throw identity ? badUrl(error, path) : new SignInRequired();
      })
      .catch((e: FastifyError) => sendError(e, request, reply));
  };
}
