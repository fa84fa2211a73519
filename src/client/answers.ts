import { createHash } from 'node:crypto';
import type { CachedAnswer, FlagSnapshot, ServedFeature, ServedStrategy } from './snapshot.js';

/** Which flags a client request may see and how it wants them. */
export interface FeatureQuery {
  environment: string;
  /** The projects of the token, narrowed by the `project` filter; `*` for all. */
  projects: string[] | '*';
  namePrefix?: string;
  /** `type:value` pairs; a feature with any of them is served. */
  tags?: string[];
  /** Older SDKs (client spec below 4.2.0) know no segments: their constraints go into each strategy. */
  inlineSegments: boolean;
}

export interface Answer extends CachedAnswer {
  /** Encoded once: sending it costs no JSON and no UTF-8 encoding per request. */
  body: Buffer;
  etag: string;
  features: ServedFeature[];
}

/** The live features the query sees in its environment, by name. */
export function selected(snapshot: FlagSnapshot, q: FeatureQuery): ServedFeature[] {
  return snapshot
    .features(q.environment)
    .filter(
      (f) =>
        (q.projects === '*' || q.projects.includes(f.project)) &&
        (!q.namePrefix || f.name.startsWith(q.namePrefix)) &&
        (!q.tags?.length || q.tags.some((t) => snapshot.hasTag(f.name, t))),
    );
}

function inlined(snapshot: FlagSnapshot, feature: ServedFeature): ServedFeature {
  if (!feature.strategies.some((s) => s.segments)) return feature;
  return {
    ...feature,
    strategies: feature.strategies.map((s): ServedStrategy => {
      const { segments = [], ...rest } = s;
      return {
        ...rest,
        constraints: [...s.constraints, ...segments.flatMap((id) => snapshot.segment(id)?.constraints ?? [])],
      };
    }),
  };
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('base64url').slice(0, 16);
}

/**
 * A query naming a project that does not exist gets its answer built each time, not kept: any
 * caller can make up project names, and each would otherwise hold an entry of the cache.
 */
export function cacheable(snapshot: FlagSnapshot, q: FeatureQuery): boolean {
  return q.projects === '*' || q.projects.every((p) => snapshot.knowsProject(p));
}

/**
 * The client API's answer to a query: the body, built once per revision and query, and an ETag
 * that changes exactly when what this query sees changes.
 */
export function answerFor(snapshot: FlagSnapshot, q: FeatureQuery): Answer {
  const key = JSON.stringify(q);
  const answers = snapshot.answerCache();
  const cached = answers.get(key) as Answer | undefined;
  if (cached) return cached;
  const answer = buildAnswer(snapshot, q, key);
  if (cacheable(snapshot, q)) answers.set(key, answer);
  return answer;
}

function buildAnswer(snapshot: FlagSnapshot, q: FeatureQuery, key: string): Answer {
  let features = selected(snapshot, q);
  if (q.inlineSegments) features = features.map((f) => inlined(snapshot, f));
  const segmentIds = q.inlineSegments
    ? []
    : [...new Set(features.flatMap((f) => f.strategies.flatMap((s) => s.segments ?? [])))].sort(
        (a, b) => a - b,
      );
  const segments = segmentIds.flatMap((id) => {
    const s = snapshot.segmentDetails(id);
    return s ? [{ id: s.id, name: s.name, constraints: s.constraints }] : [];
  });
  const featuresJson = `[${features.map((f) => snapshot.jsonOf(f)).join(',')}]`;
  const segmentsJson = JSON.stringify(segments);
  const queryHash = hash(key);
  const etag = `"${queryHash}:${hash(featuresJson + segmentsJson)}:v1"`;
  const query = {
    environment: q.environment,
    project: q.projects === '*' ? ['*'] : q.projects,
    ...(q.namePrefix ? { namePrefix: q.namePrefix } : {}),
    ...(q.tags?.length ? { tag: q.tags } : {}),
    inlineSegmentConstraints: q.inlineSegments,
  };
  const meta = { revisionId: snapshot.revision, etag, queryHash };
  const text = `{"version":2,"features":${featuresJson}${q.inlineSegments ? '' : `,"segments":${segmentsJson}`},"query":${JSON.stringify(query)},"meta":${JSON.stringify(meta)}}`;
  return { body: Buffer.from(text), etag, features };
}

/** Whether an If-None-Match header names this ETag (a list and weak tags included). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
}
