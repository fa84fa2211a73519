import type { Queryable } from '../db/database.js';
import type { FeatureModel } from '../read-model/model.js';
import type { ChangeSet, Follower } from '../sync/sync.js';
import { type FeatureQuery, selected } from './answers.js';
import type { FlagSnapshot, ServedFeature } from './snapshot.js';

/**
 * How many revisions back a client's delta is answered with the events since; an older one gets a
 * hydration (Unleash keeps 20 events per environment, Edge 100).
 */
const REVISIONS_KEPT = 100;

/** The features one revision (or one catch-up over several) changed, with their projects before it. */
interface LoggedChange {
  revision: number;
  /** Feature name → its project before the change (absent: the feature did not exist). */
  features: Map<string, string | undefined>;
}

export type DeltaEvent =
  | { type: 'hydration'; eventId: number; features: ServedFeature[]; segments: DeltaSegment[] }
  | { type: 'feature-updated'; eventId: number; feature: ServedFeature }
  | { type: 'feature-removed'; eventId: number; featureName: string; project: string };

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
 * changed and where they were before; the events carry the flags as they are now. A revision this
 * process did not see change feature by feature (its first load, a gap, a change to segments, or to
 * everything) starts the log again: a client behind it gets a hydration.
 */
export class DeltaLog implements Follower {
  /** The revision the log starts after; -1 until the first load. */
  private base = -1;
  private readonly changes: LoggedChange[] = [];

  constructor(private readonly model: FeatureModel) {}

  async load(_tx: Queryable, changes: ChangeSet): Promise<(() => void) | undefined> {
    if (changes.full || changes.scopes.has('segments')) {
      return () => {
        this.base = changes.revision;
        this.changes.length = 0;
      };
    }
    // Read before the model swaps in the new state: where each feature was until now.
    const features = new Map<string, string | undefined>();
    for (const name of changes.features) features.set(name, this.model.feature(name)?.project);
    return () => {
      if (features.size > 0) this.changes.push({ revision: changes.revision, features });
      while (this.changes.length > REVISIONS_KEPT) this.base = this.changes.shift()!.revision;
    };
  }

  /** Whether the events after `revision` are all here, up to the current one. */
  covers(revision: number): boolean {
    return this.base >= 0 && revision >= this.base;
  }

  /** The events after `revision` the query sees, in order; empty when nothing it sees changed. */
  eventsSince(snapshot: FlagSnapshot, q: FeatureQuery, revision: number): DeltaEvent[] {
    const last = new Map<string, { revision: number; projectBefore: string | undefined }>();
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
    }
    const seen = (name: string, project: string | undefined) =>
      project !== undefined &&
      (q.projects === '*' || q.projects.includes(project)) &&
      (!q.namePrefix || name.startsWith(q.namePrefix));
    const events: DeltaEvent[] = [];
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
      if (shown) events.push({ type: 'feature-updated', eventId, feature: now });
    }
    return events.sort((a, b) => a.eventId - b.eventId);
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
