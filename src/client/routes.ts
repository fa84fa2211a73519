import semver from 'semver';
import type { AppContext } from '../app-context.js';
import { NotFoundError } from '../http/errors.js';
import type { TokenIdentity } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { answerFor, cacheable, type FeatureQuery, matchesEtag } from './answers.js';
import { type DeltaEvent, type DeltaLog, hydration } from './delta.js';
import {
  ClientDelta,
  ClientDeltaQuery,
  ClientFeatureParams,
  ClientFeatures,
  ClientFeaturesQuery,
} from './schemas.js';
import { assertReady, type CachedAnswer, type FlagSnapshot } from './snapshot.js';

const SEGMENTS_SINCE = '4.2.0';

function knowsSegments(spec: string | string[] | undefined): boolean {
  const version = semver.coerce(Array.isArray(spec) ? spec[0] : spec);
  return version !== null && semver.gte(version, SEGMENTS_SINCE);
}

/** The token's scope, narrowed (never widened) by the query's filters. */
function queryOf(
  token: TokenIdentity,
  filters: { project?: string[]; namePrefix?: string; tag?: string[] },
  spec: string | string[] | undefined,
): FeatureQuery {
  const all = token.projects.includes('*');
  let projects: string[] | '*' = all ? '*' : token.projects;
  if (filters.project?.length) {
    projects = all ? filters.project : token.projects.filter((p) => filters.project!.includes(p));
  }
  return {
    environment: token.environment,
    projects: projects === '*' ? '*' : [...projects].sort(),
    namePrefix: filters.namePrefix || undefined,
    tags: filters.tag?.length ? [...filters.tag].sort() : undefined,
    inlineSegments: !knowsSegments(spec),
  };
}

/** The revision an SDK names in If-None-Match (`"123"`, quoted or not); undefined when none. */
function revisionOf(ifNoneMatch: string | undefined): number | undefined {
  const text = ifNoneMatch
    ?.trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  if (!text || !/^\d{1,10}$/.test(text)) return undefined;
  return Number(text);
}

interface DeltaAnswer extends CachedAnswer {
  etag: string;
}

/**
 * The answer of `GET /api/client/delta` to a client at `revision`: a hydration when it has none or
 * one older than the log, the events since otherwise; null when nothing it sees has changed (304).
 */
function deltaFor(
  snapshot: FlagSnapshot,
  log: DeltaLog,
  q: FeatureQuery,
  revision: number | undefined,
): DeltaAnswer | null {
  if (revision !== undefined && revision >= snapshot.revision) return null;
  const incremental = revision !== undefined && log.covers(revision);
  const key = `delta:${incremental ? revision : 'hydration'}:${JSON.stringify(q)}`;
  const answers = snapshot.answerCache();
  const cached = answers.get(key) as DeltaAnswer | undefined;
  if (cached) return cached.body.length > 0 ? cached : null;
  const events: DeltaEvent[] = incremental
    ? log.eventsSince(snapshot, q, revision)
    : [hydration(snapshot, q)];
  const body = Buffer.from(events.length > 0 ? JSON.stringify({ events }) : '');
  const answer = { body, etag: `"${events.at(-1)?.eventId ?? revision}"` };
  if (cacheable(snapshot, q)) answers.set(key, answer);
  return events.length > 0 ? answer : null;
}

export function clientRoutes(app: App, _ctx: AppContext, snapshot: FlagSnapshot, delta: DeltaLog): void {
  const tags = ['Client API'];

  app.get(
    '/api/client/features',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary: "The flags of the token's projects in its environment, for server-side SDKs",
        querystring: ClientFeaturesQuery,
        response: { 200: ClientFeatures, 304: NoContent },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const token = identityOf(request) as TokenIdentity;
      const spec = request.headers['unleash-client-spec'];
      // Kept by the question it asks, not by its URL: query strings that differ only in what
      // this server ignores share one answer.
      const answer = answerFor(snapshot, queryOf(token, request.query, spec));
      reply.header('etag', answer.etag);
      if (matchesEtag(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
      // Built once per revision and query: sent as bytes, never serialized again.
      return reply.type('application/json; charset=utf-8').send(answer.body as never);
    },
  );

  app.get(
    '/api/client/features/:featureName',
    {
      config: { permission: 'NONE' },
      schema: { tags, summary: 'One flag, as in the list', params: ClientFeatureParams },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const token = identityOf(request) as TokenIdentity;
      const answer = answerFor(snapshot, queryOf(token, {}, request.headers['unleash-client-spec']));
      const feature = answer.features.find((f) => f.name === request.params.featureName);
      if (!feature)
        throw new NotFoundError(`No feature named "${request.params.featureName}" is served to this token.`);
      reply.header('etag', answer.etag);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(feature));
    },
  );

  app.get(
    '/api/client/delta',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          "What changed in the token's flags since the revision in If-None-Match (everything, the first time), for SDKs in delta mode",
        querystring: ClientDeltaQuery,
        response: { 200: ClientDelta, 304: NoContent },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const token = identityOf(request) as TokenIdentity;
      const q = { ...queryOf(token, { ...request.query, tag: undefined }, undefined), inlineSegments: false };
      const answer = deltaFor(snapshot, delta, q, revisionOf(request.headers['if-none-match']));
      // Unchanged: no body and no headers, the ETag the client holds stays its revision.
      if (!answer) return reply.code(304).send();
      reply.header('etag', answer.etag);
      return reply.type('application/json; charset=utf-8').send(answer.body as never);
    },
  );
}
