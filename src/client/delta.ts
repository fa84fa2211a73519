import type { Queryable } from '../db/database.js';
import type { FeatureModel } from '../read-model/model.js';
import { allSegments } from '../segments/list.js';
import type { ChangeSet, Follower } from '../sync/sync.js';
import { cacheable, type FeatureQuery, selected } from './answers.js';
import type { CachedAnswer, FlagSnapshot, ServedFeature } from './snapshot.js';

/**
 * How many revisions back a client's delta is answered with the events since; an older one gets a
 * hydration (Unleash keeps 20 events per environment, Edge 100).
 */
const REVISIONS_KEPT = 100;

/** What one revision (or one catch-up over several) changed: features, with their projects before it, and segments. */
interface LoggedChange {
  revision: number;
  /** Feature name → its project before the change (absent: the feature did not exist). */
  features: Map<string, string | undefined>;
  segments: Map<number, 'updated' | 'removed'>;
}

export type DeltaEvent =
  | { type: 'hydration'; eventId: number; features: ServedFeature[]; segments: DeltaSegment[] }
  | { type: 'feature-updated'; eventId: number; feature: ServedFeature }
  | { type: 'feature-removed'; eventId: number; featureName: string; project: string }
  | { type: 'segment-updated'; eventId: number; segment: DeltaSegment }
  | { type: 'segment-removed'; eventId: number; segmentId: number };

/** Within one event id: segments first (a feature may use them), a move's removal before its update. */
const ORDER: Record<DeltaEvent['type'], number> = {
  hydration: 0,
  'segment-updated': 1,
  'segment-removed': 2,
  'feature-removed': 3,
  'feature-updated': 4,
};

interface DeltaSegment {
  id: number;
  name: string;
  constraints: unknown[];
}

/**
 * What changed in the flags, revision by revision, as SDKs in delta mode ask for it
 * (`GET /api/client/delta`). The configuration revision is the event id: it is the same on every
 * process of one database, and what a revision changed is read back from the database by every
 * process's sync, so a client may ask any of them. The log holds which features each revision
 * and segments each revision changed and where the features were before; the events carry the
 * flags and segments as they are now. A revision this process did not see change by change (its
 * first load, a gap, a change to everything) starts the log again: a client behind it gets a
 * hydration.
 */
export class DeltaLog implements Follower {
  /** The revision the log starts after; -1 until the first load. */
  private base = -1;
  private readonly changes: LoggedChange[] = [];
  private readonly listeners = new Set<() => void>();
  private announcing = false;

  constructor(private readonly model: FeatureModel) {}

  /** Calls `listener` after revisions were taken in (once for several taken in together). */
  onApplied(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After the sync's swaps, all of them: the model the events are made from holds the revision. */
  private announce(): void {
    if (this.announcing || this.listeners.size === 0) return;
    this.announcing = true;
    setImmediate(() => {
      this.announcing = false;
      for (const listener of this.listeners) listener();
    });
  }

  async load(tx: Queryable, changes: ChangeSet): Promise<(() => void) | undefined> {
    if (changes.full) {
      return () => {
        this.base = changes.revision;
        this.changes.length = 0;
        this.announce();
      };
    }
    // Read before the model swaps in the new state: where each feature was until now, and which
    // segments differ from those it holds.
    const features = new Map<string, string | undefined>();
    for (const name of changes.features) features.set(name, this.model.feature(name)?.project);
    const segments = new Map<number, 'updated' | 'removed'>();
    if (changes.scopes.has('segments')) {
      const before = new Map(this.model.segments().map((s) => [s.id, s]));
      for (const s of await allSegments(tx)) {
        const was = before.get(s.id);
        before.delete(s.id);
        if (
          !was ||
          was.name !== s.name ||
          JSON.stringify(was.constraints) !== JSON.stringify(s.constraints)
        ) {
          segments.set(s.id, 'updated');
        }
      }
      for (const id of before.keys()) segments.set(id, 'removed');
    }
    return () => {
      if (features.size > 0 || segments.size > 0) {
        this.changes.push({ revision: changes.revision, features, segments });
        this.announce();
      }
      while (this.changes.length > REVISIONS_KEPT) this.base = this.changes.shift()!.revision;
    };
  }

  /** Whether the events after `revision` are all here, up to the current one. */
  covers(revision: number): boolean {
    return this.base >= 0 && revision >= this.base;
  }

  /**
   * The events after `revision` the query sees, in order; empty when nothing it sees changed. A
   * segment's update goes to clients whose features use it, and before every feature updated that
   * uses a segment (the client may never have been sent it); a segment's removal goes to all.
   */
  eventsSince(snapshot: FlagSnapshot, q: FeatureQuery, revision: number): DeltaEvent[] {
    const last = new Map<string, { revision: number; projectBefore: string | undefined }>();
    const segmentLast = new Map<number, { revision: number; change: 'updated' | 'removed' }>();
    for (const change of this.changes) {
      if (change.revision <= revision) continue;
      for (const [name, project] of change.features) {
        const earlier = last.get(name);
        // The project before the first change since `revision`: where the client last saw it.
        last.set(name, {
          revision: change.revision,
          projectBefore: earlier ? earlier.projectBefore : project,
        });
      }
      for (const [id, kind] of change.segments)
        segmentLast.set(id, { revision: change.revision, change: kind });
    }
    const seen = (name: string, project: string | undefined) =>
      project !== undefined &&
      (q.projects === '*' || q.projects.includes(project)) &&
      (!q.namePrefix || name.startsWith(q.namePrefix));
    const events: DeltaEvent[] = [];
    const segmentUpdated = (id: number, eventId: number) => {
      const segment = snapshot.segmentDetails(id);
      if (segment) events.push({ type: 'segment-updated', eventId, segment });
    };
    for (const [name, { revision: eventId, projectBefore }] of last) {
      const now = snapshot.feature(q.environment, name);
      const shown = now !== undefined && seen(name, now.project);
      const moved = now !== undefined && projectBefore !== undefined && projectBefore !== now.project;
      if ((!shown || moved) && seen(name, projectBefore)) {
        events.push({ type: 'feature-removed', eventId, featureName: name, project: projectBefore! });
      } else if (!shown && !now) {
        // Archived or deleted: removed in the project it is in now, if this client sees that one.
        const project = this.model.feature(name)?.project;
        if (seen(name, project))
          events.push({ type: 'feature-removed', eventId, featureName: name, project: project! });
      }
      if (!shown) continue;
      for (const id of new Set(now.strategies.flatMap((st) => st.segments ?? [])))
        segmentUpdated(id, eventId);
      events.push({ type: 'feature-updated', eventId, feature: now });
    }
    if (segmentLast.size > 0) {
      const used = new Set(
        selected(snapshot, q).flatMap((f) => f.strategies.flatMap((st) => st.segments ?? [])),
      );
      for (const [id, { revision: eventId, change }] of segmentLast) {
        if (change === 'removed') events.push({ type: 'segment-removed', eventId, segmentId: id });
        else if (used.has(id)) segmentUpdated(id, eventId);
      }
    }
    events.sort((a, b) => a.eventId - b.eventId || ORDER[a.type] - ORDER[b.type]);
    // One update of a segment is enough: the first, which comes before every feature that uses it.
    const sent = new Set<number>();
    return events.filter((e) => {
      if (e.type !== 'segment-updated') return true;
      if (sent.has(e.segment.id)) return false;
      sent.add(e.segment.id);
      return true;
    });
  }
}

/** Every segment, by name then id, as a hydration carries them. */
export function hydration(snapshot: FlagSnapshot, q: FeatureQuery): DeltaEvent {
  const segments = snapshot
    .allSegments()
    .map((s) => ({ id: s.id, name: s.name, constraints: s.constraints }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  return { type: 'hydration', eventId: snapshot.revision, features: selected(snapshot, q), segments };
}

/** The revision an SDK names in If-None-Match (`"123"`, quoted or not); undefined when none. */
export function revisionOf(ifNoneMatch: string | undefined): number | undefined {
  const text = ifNoneMatch
    ?.trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  if (!text || !/^\d{1,10}$/.test(text)) return undefined;
  return Number(text);
}

export interface DeltaAnswer extends CachedAnswer {
  etag: string;
  /** The last event's id: the revision the client holds once it has these events. */
  eventId: number;
}

/**
 * The answer of `GET /api/client/delta` to a client at `revision`: a hydration when it has none or
 * one older than the log, the events since otherwise; null when nothing it sees has changed (304).
 */
export function deltaFor(
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
  const eventId = events.at(-1)?.eventId ?? revision ?? snapshot.revision;
  const answer = { body, etag: `"${eventId}"`, eventId };
  if (cacheable(snapshot, q)) answers.set(key, answer);
  return events.length > 0 ? answer : null;
}
