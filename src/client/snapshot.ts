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

/** After a change, how long the snapshot waits for more changes before rebuilding on its own. */
const SETTLE_MS = 100;

/**
 * Every environment's flags in memory, so the SDK API answers without SQL. A change of the
 * configuration revision marks it stale; it is rebuilt once changes settle, or at once when an SDK
 * request needs it — that request waits for the rebuild (no SQL of its own), so a change is served
 * from the first request after it, and a burst of admin writes costs one rebuild, not one each.
 */
export class FlagSnapshot {
  revision = -1;
  private environments = new Map<string, EnvironmentFlags>();
  private segmentById = new Map<number, SegmentRow>();
  private tagsOf = new Map<string, Set<string>>();
  /** Answers already built for this revision, by query. */
  readonly answers = new Map<string, unknown>();
  private stale = true;
  private loading: Promise<void> | undefined;
  private settleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The configuration changed: rebuild before the next answer. */
  invalidate(): void {
    this.stale = true;
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => void this.current().catch(this.onError), SETTLE_MS);
    this.settleTimer.unref();
  }

  /** Resolves once the snapshot reflects every change seen so far. */
  async current(): Promise<void> {
    while (this.stale || this.loading) {
      this.loading ??= this.load().finally(() => {
        this.loading = undefined;
      });
      await this.loading;
    }
  }

  private async load(): Promise<void> {
    this.stale = false;
    try {
      const state = await loadFlagState(this.db);
      const built = index(state);
      this.environments = built.environments;
      this.segmentById = built.segments;
      this.tagsOf = built.tags;
      this.revision = state.revision;
      this.answers.clear();
    } catch (error) {
      this.stale = true;
      throw error;
    }
  }

  stop(): void {
    clearTimeout(this.settleTimer);
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
