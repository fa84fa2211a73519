import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../http/errors.js';
import type { TokenIdentity } from '../http/identity.js';
import type { SdkEvaluationLimit } from '../http/rate-limit.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { matchesEtag } from './answers.js';
import type { Evaluation } from './evaluation/evaluate.js';
import type { ClientFeature, Context } from './evaluation/types.js';
import { FrontendContextBody, FrontendFeatureParams, FrontendToggle, FrontendToggles } from './schemas.js';
import { assertReady, type FlagSnapshot, type ServedFeature } from './snapshot.js';
import { type AnswerKind, type WrittenAnswer, writeAnswer } from './written-answer.js';

const TOP_LEVEL_FIELDS = new Set(['userId', 'sessionId', 'remoteAddress', 'appName', 'environment']);

function text(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v === null || typeof v === 'object') return undefined;
  return String(v);
}

/**
 * The evaluation context of a frontend request: the standard fields at the top, `properties[x]`
 * and every other field in `properties`; a missing session id gets a random one and a missing
 * address the caller's.
 */
export function contextFrom(fields: Record<string, unknown>, callerAddress: string): Context {
  const properties: Record<string, string> = {};
  const context: Context = { properties };
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, v] of Object.entries(value)) {
        const s = text(v);
        if (s !== undefined) properties[name] = s;
      }
      continue;
    }
    const s = text(value);
    if (s === undefined) continue;
    const nested = /^properties\[(.+)\]$/.exec(key);
    if (nested) properties[nested[1]!] = s;
    else if (TOP_LEVEL_FIELDS.has(key)) context[key] = s;
    else properties[key] = s;
  }
  // Only for stickiness, not a secret: Math.random costs far less than the crypto source.
  context.sessionId ??= String(Math.floor(Math.random() * 1_000_000_000));
  context.remoteAddress ??= callerAddress;
  return context;
}

/** Whether the token's projects include the feature's. */
export function canSee(token: TokenIdentity, feature: ServedFeature): boolean {
  return token.projects.includes('*') || token.projects.includes(feature.project);
}

/** The feature as a frontend SDK gets it, or null when it is off for this context. */
function toggleOf(feature: ClientFeature, { enabled, variant }: Evaluation) {
  if (!enabled) return null;
  return {
    name: feature.name,
    enabled: true,
    variant: {
      name: variant.name,
      enabled: variant.enabled,
      feature_enabled: true,
      featureEnabled: true,
      ...(variant.payload ? { payload: variant.payload } : {}),
    },
    impressionData: feature.impressionData === true,
  };
}

/** The frontend API lists the flags that are on for the context, and only those. */
const TOGGLES: AnswerKind = {
  name: 'frontend',
  open: '{"toggles":[',
  close: ']}',
  lists: (evaluation) => evaluation.enabled,
  write: (feature, evaluation) => JSON.stringify(toggleOf(feature, evaluation)),
};

/** A GET (or HEAD) naming the answer's ETag in If-None-Match gets 304 without the body. */
function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: WrittenAnswer) {
  reply.header('cache-control', 'no-cache').header('etag', answer.etag);
  if (request.method !== 'POST' && matchesEtag(request.headers['if-none-match'], answer.etag)) {
    return reply.code(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

export function frontendRoutes(app: App, snapshot: FlagSnapshot, evaluations: SdkEvaluationLimit): void {
  const tags = ['Frontend API'];

  app.get(
    '/api/frontend',
    {
      config: { permission: 'NONE' },
      onRequest: evaluations.check,
      schema: {
        tags,
        summary:
          'The flags that are on for the context in the query, evaluated here, for browser and mobile SDKs',
        response: { 200: FrontendToggles, 304: NoContent },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const context = contextFrom(request.query as Record<string, unknown>, request.ip);
      const answer = writeAnswer(TOGGLES, snapshot, identityOf(request) as TokenIdentity, context);
      if (!answer.kept) evaluations.charge(request);
      return sendAnswer(request, reply, answer);
    },
  );

  app.post(
    '/api/frontend',
    {
      config: { permission: 'NONE' },
      onRequest: evaluations.check,
      schema: {
        tags,
        summary: 'As the GET, with the context in the body',
        body: FrontendContextBody,
        response: { 200: FrontendToggles },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const context = contextFrom(request.body.context ?? {}, request.ip);
      const answer = writeAnswer(TOGGLES, snapshot, identityOf(request) as TokenIdentity, context);
      if (!answer.kept) evaluations.charge(request);
      return sendAnswer(request, reply, answer);
    },
  );

  app.get(
    '/api/frontend/features/:featureName',
    {
      config: { permission: 'NONE' },
      onRequest: evaluations.check,
      schema: {
        tags,
        summary: 'One flag, evaluated for the context in the query; 404 when it is off or unknown',
        params: FrontendFeatureParams,
        response: { 200: FrontendToggle },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const token = identityOf(request) as TokenIdentity;
      const name = request.params.featureName;
      const feature = snapshot.feature(token.environment, name);
      const context = contextFrom(request.query as Record<string, unknown>, request.ip);
      evaluations.charge(request);
      const toggle =
        feature && canSee(token, feature)
          ? toggleOf(feature, snapshot.evaluate(token.environment, feature, context))
          : null;
      // Off, unknown or out of the token's projects all look the same, as in the list.
      if (!toggle) throw new NotFoundError(`The flag "${name}" is not on for this context.`);
      reply.header('cache-control', 'no-cache');
      return toggle;
    },
  );
}
