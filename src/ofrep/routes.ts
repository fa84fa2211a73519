import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag } from '../client/answers.js';
import type { Evaluation } from '../client/evaluation/evaluate.js';
import type { Context } from '../client/evaluation/types.js';
import { canSee, contextFrom } from '../client/frontend.js';
import { assertReady, type FlagSnapshot, type ServedFeature } from '../client/snapshot.js';
import { type AnswerKind, writeAnswer } from '../client/written-answer.js';
import type { TokenIdentity } from '../http/identity.js';
import type { SdkEvaluationLimit } from '../http/rate-limit.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { resolve } from './resolution.js';
import { OfrepBulk, OfrepBulkQuery, OfrepFlagParams, OfrepSuccess } from './schemas.js';

/** Every flag of the token, the ones off for the context too: a provider reports a missing one as not found. */
const FLAGS: AnswerKind = {
  name: 'ofrep',
  open: '{"flags":[',
  close: ']}',
  lists: () => true,
  write: (feature, evaluation) => JSON.stringify(resolve(feature as ServedFeature, evaluation)),
};

/**
 * The evaluation context of an OFREP body: `targetingKey` is the user's id unless `userId` is
 * given, the other fields as the frontend API reads them. No context is an empty one; a context
 * that is not an object is refused (null).
 */
function contextOf(body: unknown, callerAddress: string): Context | null {
  const sent = body === undefined || body === null ? {} : body;
  if (typeof sent !== 'object' || Array.isArray(sent)) return null;
  const context = (sent as { context?: unknown }).context ?? {};
  if (typeof context !== 'object' || context === null || Array.isArray(context)) return null;
  const fields = { ...(context as Record<string, unknown>) };
  const { targetingKey } = fields;
  delete fields.targetingKey;
  if (fields.userId === undefined && (typeof targetingKey === 'string' || typeof targetingKey === 'number')) {
    fields.userId = targetingKey;
  }
  return contextFrom(fields, callerAddress);
}

/**
 * An OFREP failure body, written here rather than by a response schema: a 400 or 404 schema of the
 * route would also be applied to the API's own errors of those statuses (a body that is not JSON,
 * a refused query value), which these bodies are not, and their serializing would fail (500).
 */
function sendFailure(reply: FastifyReply, status: 400 | 404, body: object) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

const INVALID_CONTEXT = 'The context must be an object of fields, as {"context":{"targetingKey":"user-1"}}.';

export function ofrepRoutes(app: App, snapshot: FlagSnapshot, evaluations: SdkEvaluationLimit): void {
  const tags = ['OpenFeature (OFREP)'];

  app.post(
    '/ofrep/v1/evaluate/flags/:key',
    {
      config: { permission: 'NONE' },
      onRequest: evaluations.check,
      schema: {
        tags,
        summary: 'One flag evaluated for the context in the body (OpenFeature Remote Evaluation Protocol)',
        description:
          'With a frontend or client token, in `Authorization` or `X-API-Key`: the flags of its projects in its environment. ' +
          "Failures answer OFREP's `{key, errorCode, errorDetails}`: 404 FLAG_NOT_FOUND, 400 INVALID_CONTEXT or PARSE_ERROR.",
        params: OfrepFlagParams,
        response: { 200: OfrepSuccess },
      },
    },
    async (request, reply) => {
      assertReady(snapshot);
      const key = request.params.key;
      const context = contextOf(request.body, request.ip);
      if (!context) {
        return sendFailure(reply, 400, { key, errorCode: 'INVALID_CONTEXT', errorDetails: INVALID_CONTEXT });
      }
      const token = identityOf(request) as TokenIdentity;
      const feature = snapshot.feature(token.environment, key);
      if (!feature || !canSee(token, feature)) {
        return sendFailure(reply, 404, {
          key,
          errorCode: 'FLAG_NOT_FOUND',
          errorDetails: `No flag named "${key}" is served to this token.`,
        });
      }
      evaluations.charge(request);
      const evaluation: Evaluation = snapshot.evaluate(token.environment, feature, context);
      const resolution = resolve(feature, evaluation);
      return 'errorCode' in resolution ? sendFailure(reply, 400, resolution) : resolution;
    },
  );

  app.post(
    '/ofrep/v1/evaluate/flags',
    {
      config: { permission: 'NONE' },
      onRequest: evaluations.check,
      schema: {
        tags,
        summary: 'Every flag of the token evaluated for the context in the body, with an ETag',
        description:
          'Flags that are off for the context are listed too (`false`, reason DISABLED or DEFAULT). ' +
          '`If-None-Match` with the ETag of the last answer gets 304 while the answer is the same.',
        querystring: OfrepBulkQuery,
        response: { 200: OfrepBulk, 304: NoContent },
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      assertReady(snapshot);
      const context = contextOf(request.body, request.ip);
      if (!context)
        return sendFailure(reply, 400, { errorCode: 'INVALID_CONTEXT', errorDetails: INVALID_CONTEXT });
      const answer = writeAnswer(FLAGS, snapshot, identityOf(request) as TokenIdentity, context);
      if (!answer.kept) evaluations.charge(request);
      reply.header('cache-control', 'no-cache').header('etag', answer.etag);
      if (matchesEtag(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(answer.body);
    },
  );
}
