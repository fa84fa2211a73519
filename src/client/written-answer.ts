import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { TokenIdentity } from '../http/identity.js';
import {
  type CompiledFeature,
  compiledFeature,
  type Evaluation,
  type FlagSet,
  type Written,
} from './evaluation/evaluate.js';
import { constraintInputs, type Input, keyOf } from './evaluation/inputs.js';
import type { ClientFeature, Context } from './evaluation/types.js';
import type { FlagSnapshot } from './snapshot.js';

export interface WrittenAnswer {
  body: Buffer;
  etag: string;
  /** Whether it was kept from an earlier request with a context that reads the same. */
  kept?: true;
}

/** An answer that lists the token's flags evaluated for one context (the frontend API's, OFREP's bulk). */
export interface AnswerKind {
  name: keyof Evaluation['written'];
  /** What comes before the flags and after them. */
  open: string;
  close: string;
  /** Whether a flag evaluated so is listed at all. */
  lists(evaluation: Evaluation): boolean;
  /** A listed flag's JSON. */
  write(feature: ClientFeature, evaluation: Evaluation): string;
}

/**
 * Answers already written, by kind and ETag: many contexts get the same flags (every anonymous
 * visitor, every user outside a rollout), and writing the bytes is the larger part of an answer's
 * cost. An entry whose flags have changed since is never asked again and ages out.
 */
const bodies = new LRUCache<string, Buffer>({
  max: 2000,
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (body, key) => body.length + key.length * 2 + 256,
});

/**
 * Answers by the context they were written for, for a list of flags (a token's projects at one
 * configuration version): an SDK polls with the same context again and again, and two contexts
 * that read the same for everything the flags read get the same answer. The list's entries are
 * never asked again once the configuration moves on, and age out.
 */
const byContext = new LRUCache<string, WrittenAnswer>({
  max: 10_000,
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (answer, key) => answer.body.length + key.length * 2 + 256,
});

interface ListInputs {
  id: number;
  inputs: Input[];
}

const lists = new WeakMap<readonly CompiledFeature[], ListInputs>();
let listCount = 0;

/** Everything of a context that the flags of a list read, their segments and parents included. */
function inputsOf(features: readonly CompiledFeature[], flags: FlagSet): ListInputs {
  let known = lists.get(features);
  if (!known) {
    const byId = new Map<string, Input>();
    const visited = new Set<CompiledFeature>();
    const visit = (feature: CompiledFeature) => {
      if (visited.has(feature)) return;
      visited.add(feature);
      for (const input of feature.inputs) byId.set(input.id, input);
      for (const id of feature.segmentIds) {
        for (const c of flags.segment(id)?.constraints ?? []) {
          for (const input of constraintInputs(c)) byId.set(input.id, input);
        }
      }
      for (const name of feature.parentNames) {
        const parent = flags.feature(name);
        if (parent) visit(compiledFeature(parent));
      }
    };
    for (const feature of features) visit(feature);
    known = { id: ++listCount, inputs: [...byId.values()] };
    lists.set(features, known);
  }
  return known;
}

/** A flag's JSON in an answer of this kind, written once per evaluation a compiled flag can give. */
function writtenOnce(kind: AnswerKind, feature: ClientFeature, evaluation: Evaluation): Written {
  let written = evaluation.written[kind.name];
  if (!written) {
    const json = kind.write(feature, evaluation);
    const digest = createHash('sha1').update(json).digest();
    written = { json, h1: digest.readUInt32BE(0), h2: digest.readUInt32BE(4) };
    evaluation.written[kind.name] = written;
  }
  return written;
}

/**
 * The answer for a context, and its ETag. What a context gets can change without the
 * configuration changing (a date constraint, the caller's address), so only the answer itself
 * says whether it changed. The ETag is made of the flags' own hashes, in order, not of the whole
 * answer's bytes: the same answer has the same ETag on every process, and after a flag is changed
 * and changed back, yet no request hashes more than a few numbers per flag.
 */
export function writeAnswer(
  kind: AnswerKind,
  snapshot: FlagSnapshot,
  token: TokenIdentity,
  context: Context,
): WrittenAnswer {
  const environment = token.environment;
  const flags = snapshot.flagSet(environment);
  const features = snapshot.compiledOf(environment, token.projects);
  const list = inputsOf(features, flags);
  const contextKey = keyOf(list.inputs, context);
  const cacheKey = contextKey === undefined ? undefined : `${kind.name}:${list.id}:${contextKey}`;
  const cached = cacheKey === undefined ? undefined : byContext.get(cacheKey);
  if (cached) return { ...cached, kept: true };
  const parts: string[] = [];
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (const compiled of features) {
    const evaluation = compiled.evaluate(context, flags);
    if (!kind.lists(evaluation)) continue;
    const written = writtenOnce(kind, compiled.source, evaluation);
    parts.push(written.json);
    h1 = Math.imul(h1 ^ written.h1, 0x01000193);
    h1 ^= h1 >>> 13;
    h2 = Math.imul(h2 ^ written.h2, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  const etag = `"${(h1 >>> 0).toString(36)}-${(h2 >>> 0).toString(36)}-${parts.length.toString(36)}"`;
  const key = `${kind.name}${etag}`;
  let body = bodies.get(key);
  if (!body) {
    body = Buffer.from(`${kind.open}${parts.join(',')}${kind.close}`);
    bodies.set(key, body);
  }
  const answer = { body, etag };
  if (cacheKey !== undefined) byContext.set(cacheKey, answer);
  return answer;
}
