import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { TokenIdentity } from '../http/identity.js';
import type { Evaluation, Written } from './evaluation/evaluate.js';
import type { ClientFeature, Context } from './evaluation/types.js';
import type { FlagSnapshot } from './snapshot.js';

export interface FrontendAnswer {
  body: Buffer;
  etag: string;
}

/**
 * Answers already written, by ETag: many contexts get the same flags (every anonymous visitor,
 * every user outside a rollout), and writing the bytes is the larger part of an answer's cost.
 * An entry whose fragments are gone is never asked again and ages out.
 */
const bodies = new LRUCache<string, Buffer>({
  max: 2000,
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (body, etag) => body.length + etag.length * 2 + 256,
});

/** The feature as a frontend SDK gets it, or null when it is off for this context. */
export function toggleOf(feature: ClientFeature, { enabled, variant }: Evaluation) {
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

/**
 * A toggle's JSON, written once per evaluation a compiled feature can give (so once per change of
 * the flag); an answer joins them.
 */
function written(feature: ClientFeature, evaluation: Evaluation): Written {
  const json = JSON.stringify(toggleOf(feature, evaluation));
  const digest = createHash('sha1').update(json).digest();
  return { json, h1: digest.readUInt32BE(0), h2: digest.readUInt32BE(4) };
}

/**
 * The answer for a context, and its ETag. What a context gets can change without the
 * configuration changing (a date constraint, the caller's address), so only the answer itself
 * says whether it changed. The ETag is made of the fragments' own hashes, in order, not of the
 * whole answer's bytes: the same answer has the same ETag on every process, and after a flag is
 * changed and changed back, yet no request hashes more than a few numbers per flag.
 */
export function frontendAnswer(
  snapshot: FlagSnapshot,
  token: TokenIdentity,
  context: Context,
): FrontendAnswer {
  const environment = token.environment;
  const flags = snapshot.flagSet(environment);
  const parts: string[] = [];
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (const compiled of snapshot.compiledOf(environment, token.projects)) {
    const evaluation = compiled.evaluate(context, flags);
    if (!evaluation.enabled) continue;
    evaluation.written.frontend ??= written(compiled.source, evaluation);
    const fragment = evaluation.written.frontend;
    parts.push(fragment.json);
    h1 = Math.imul(h1 ^ fragment.h1, 0x01000193);
    h1 ^= h1 >>> 13;
    h2 = Math.imul(h2 ^ fragment.h2, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  const etag = `"${(h1 >>> 0).toString(36)}-${(h2 >>> 0).toString(36)}-${parts.length.toString(36)}"`;
  let body = bodies.get(etag);
  if (!body) {
    body = Buffer.from(`{"toggles":[${parts.join(',')}]}`);
    bodies.set(etag, body);
  }
  return { body, etag };
}
