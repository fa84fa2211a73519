import { Type } from '@sinclair/typebox';
import semver from 'semver';
import type { AppContext } from '../app-context.js';
import { NotFoundError, RateLimitError } from '../http/errors.js';
import type { TokenIdentity } from '../http/identity.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { answerFor, type FeatureQuery, matchesEtag } from './answers.js';
import { type DeltaLog, deltaFor, revisionOf } from './delta.js';
import {
  ClientDelta,
  ClientDeltaQuery,
  ClientFeatureParams,
  ClientFeatures,
  ClientFeaturesQuery,
} from './schemas.js';
import { assertReady, type FlagSnapshot } from './snapshot.js';
import type { StreamHub } from './streaming.js';

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

export function clientRoutes(
  app: App,
  ctx: AppContext,
  snapshot: FlagSnapshot,
  delta: DeltaLog,
  streams: StreamHub,
): void {
  const tags = ['Client API'];
  /**
   * On a full answer to a poll, the Node SDK (6.12 and later) takes `fetch-mode: streaming` as
   * "stream instead": it drops that answer and opens a stream, which hydrates it. Other SDKs read
   * the answer as usual. Sent only while this process has room for another stream, or the SDK
   * would be told 429 and poll again.
   */
  const promoteStreaming = (reply: { header(name: string, value: string): unknown }) => {
    if (ctx.config.streamingPromote && !streams.full) reply.header('fetch-mode', 'streaming');
  };

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
      promoteStreaming(reply);
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
      promoteStreaming(reply);
      return reply.type('application/json; charset=utf-8').send(answer.body as never);
    },
  );

  app.get(
    '/api/client/streaming',
    {
      config: { permission: 'NONE' },
      schema: {
        tags,
        summary:
          "The token's flags as Server-Sent Events: unleash-connected with what the client lacks, then unleash-updated with each change",
        querystring: ClientDeltaQuery,
        produces: ['text/event-stream'],
        response: {
          200: Type.String({
            description:
              'An event stream: `unleash-connected` and `unleash-updated` carry a delta body (as `GET /api/client/delta` answers it) and the revision as `id`; `:keep-alive` comments in between',
          }),
        },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      if (streams.full) {
        // The SDKs poll instead when told 429.
        throw new RateLimitError(
          'This server holds as many streams as it is configured for (STREAMING_MAX_CONNECTIONS): poll instead.',
          60,
        );
      }
      const token = identityOf(request) as TokenIdentity;
      const q = { ...queryOf(token, { ...request.query, tag: undefined }, undefined), inlineSegments: false };
      const header = request.headers['last-event-id'];
      reply.hijack();
      streams.open(
        reply.raw,
        q,
        request.headers.authorization ?? '',
        revisionOf(Array.isArray(header) ? header[0] : header),
      );
    },
  );
}
