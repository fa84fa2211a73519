import type { Database } from '../db/database.js';
import type { ClientFeature, Constraint, Segment, VariantDefinition } from './evaluation/types.js';
import { type FlagState, loadFlagState, type SegmentRow } from './store.js';

export interface ServedStrategy {
  id: string;
  name: string;
  title?: string;
  constraints: Constraint[];
  parameters: Record<string, string>;
  segments: number[];
  variants: VariantDefinition[];
  sortOrder: number;
}

/** A feature as SDKs get it, for one environment. */
export interface ServedFeature extends ClientFeature {
  name: string;
  type: string;
  description: string | null;
  project: string;
  enabled: boolean;
  stale: boolean;
  impressionData: boolean;
  strategies: ServedStrategy[];
  variants: VariantDefinition[];
}

interface EnvironmentFlags {
  /** Sorted by name. */
  list: ServedFeature[];
  byName: Map<string, ServedFeature>;
}

function index(state: FlagState) {
  const strategies = new Map<string, ServedStrategy[]>();
  for (const s of state.strategies) {
    const key = `${s.environment}\u0000${s.featureName}`;
    const list = strategies.get(key) ?? [];
    list.push({
      id: s.id,
      name: s.name,
      ...(s.title ? { title: s.title } : {}),
      constraints: s.constraints,
      parameters: s.parameters,
      segments: s.segments,
      variants: s.variants,
      sortOrder: s.sortOrder,
    });
    strategies.set(key, list);
  }
  const environments = new Map<string, EnvironmentFlags>();
  for (const f of state.features) {
    let env = environments.get(f.environment);
    if (!env) {
      env = { list: [], byName: new Map() };
      environments.set(f.environment, env);
    }
    const feature: ServedFeature = {
      name: f.name,
      type: f.type,
      description: f.description,
      project: f.project,
      enabled: f.enabled,
      stale: f.stale,
      impressionData: f.impressionData,
      strategies: strategies.get(`${f.environment}\u0000${f.name}`) ?? [],
      variants: f.variants,
    };
    env.list.push(feature);
    env.byName.set(f.name, feature);
  }
  const tags = new Map<string, Set<string>>();
  for (const t of state.tags) {
    const set = tags.get(t.featureName) ?? new Set();
    set.add(`${t.type}:${t.value}`);
    tags.set(t.featureName, set);
  }
  return { environments, segments: new Map(state.segments.map((s) => [s.id, s])), tags };
}

const NO_FLAGS: EnvironmentFlags = { list: [], byName: new Map() };

/**
 * Every environment's flags in memory, so the SDK API answers without SQL. Rebuilt whenever the
 * configuration revision changes; requests arriving during a rebuild wait for it (no SQL, just a
 * short wait), so a change is served from the first request after it.
 */
export class FlagSnapshot {
  revision = -1;
  private environments = new Map<string, EnvironmentFlags>();
  private segmentById = new Map<number, SegmentRow>();
  private tagsOf = new Map<string, Set<string>>();
  /** Answers already built for this revision, by query. */
  readonly answers = new Map<string, unknown>();
  private loading: Promise<void> | undefined;
  private again = false;

  constructor(private readonly db: Database) {}

  /** Loads the flags again; calls during a load make one more load follow it. */
  refresh(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        do {
          this.again = false;
          const state = await loadFlagState(this.db);
          const built = index(state);
          this.environments = built.environments;
          this.segmentById = built.segments;
          this.tagsOf = built.tags;
          this.revision = state.revision;
          this.answers.clear();
        } while (this.again);
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  /** Resolves once no rebuild is under way. */
  async ready(): Promise<void> {
    while (this.loading) await this.loading.catch(() => {});
  }

  features(environment: string): ServedFeature[] {
    return (this.environments.get(environment) ?? NO_FLAGS).list;
  }

  feature(environment: string, name: string): ServedFeature | undefined {
    return (this.environments.get(environment) ?? NO_FLAGS).byName.get(name);
  }

  segment(id: number): Segment | undefined {
    return this.segmentById.get(id);
  }

  segmentDetails(id: number): SegmentRow | undefined {
    return this.segmentById.get(id);
  }

  hasTag(featureName: string, tag: string): boolean {
    return this.tagsOf.get(featureName)?.has(tag) ?? false;
  }
}
