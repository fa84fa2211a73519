import type { ContextFields } from '../constraints/rules.js';
import { allContextFields, rulesOf } from '../context/lookup.js';
import type { ContextField } from '../context/types.js';
import type { Database, Queryable } from '../db/database.js';
import { allEnvironments } from '../environments/list.js';
import type { Environment } from '../environments/types.js';
import { loadLastSeen } from '../features/environments/last-seen.js';
import { stagesEnteredSince } from '../features/lifecycle/queries.js';
import type { FeatureStrategy } from '../features/strategies/queries.js';
import type { Logger } from '../log.js';
import { allProjects, type LinkedProject } from '../projects/linked-environments.js';
import { allSegments } from '../segments/list.js';
import type { Segment } from '../segments/types.js';
import { listStrategyDefinitions } from '../strategies/queries.js';
import type { StrategyDefinition } from '../strategies/types.js';
import type { ChangeSet, ConfigSync } from '../sync/sync.js';
import { applyPatches, givenRecords } from './patches.js';
import { type FeatureRecord, loadFeatureRecords } from './store.js';

export type ProjectRecord = LinkedProject;

interface Parts {
  features: Map<string, FeatureRecord>;
  segments: Map<number, Segment>;
  environments: Map<string, Environment>;
  projects: Map<string, ProjectRecord>;
  /** The ids of the projects in the `private` mode. */
  privateProjects: ReadonlySet<string>;
  /** In their order. */
  contextFields: ContextField[];
  contextRules: ContextFields;
  strategyDefinitions: Map<string, StrategyDefinition>;
}

function byName<T extends { name: string }>(list: T[]): Map<string, T> {
  return new Map(list.map((x) => [x.name, x]));
}

function compareNames(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The flag configuration in memory — features with their environments, strategies, variants and
 * tags; segments, environments and projects — at the revision the sync reached. Admin reads and
 * the SDK answers come from here without SQL. A change reloads only the features it names, and a
 * change of definitions (projects' settings, context fields…) only those; other changes
 * (environments, projects' environments…) reload it whole. Swaps are synchronous, so a request
 * sees one revision from start to end of each read.
 */
export class FeatureModel {
  private parts: Parts = {
    features: new Map(),
    segments: new Map(),
    environments: new Map(),
    projects: new Map(),
    privateProjects: new Set(),
    contextFields: [],
    contextRules: new Map(),
    strategyDefinitions: new Map(),
  };
  /** The configuration revision held; -1 before the first load. */
  revision = -1;
  /** Moves on every change (configuration or last-seen times): derived caches key on it. */
  version = 0;
  private liveByProject: { version: number; lists: Map<string, FeatureRecord[]> } = {
    version: -1,
    lists: new Map(),
  };
  private lastSeenSince = new Date(0);
  private readonly seenStamps = new WeakMap<FeatureRecord, number>();
  private strategyIndex: { version: number; byId: Map<string, FeatureRecord> } = {
    version: -1,
    byId: new Map(),
  };
  private childIndex: { version: number; byParent: Map<string, string[]> } = {
    version: -1,
    byParent: new Map(),
  };
  private rulesByProject: { version: number; byProject: Map<string, ContextFields> } = {
    version: -1,
    byProject: new Map(),
  };

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  /** Follows the sync's revision, and the metrics revision for last-seen times. */
  attach(sync: ConfigSync): void {
    sync.follow({ load: (tx, changes) => this.load(tx, changes) });
    sync.onMetricsChange(() => {
      this.refreshLastSeen().catch((error: unknown) =>
        this.log.error({ err: error }, 'feature model: cannot read last-seen times'),
      );
    });
  }

  private async load(tx: Queryable, changes: ChangeSet): Promise<(() => void) | undefined> {
    if (changes.full) {
      const features = await loadFeatureRecords(tx, null);
      const segments = await allSegments(tx);
      const environments = await allEnvironments(tx);
      const catalog = await this.loadCatalog(tx);
      return () => {
        this.parts = {
          features: byName(features),
          segments: new Map(segments.map((s) => [s.id, s])),
          environments: byName(environments),
          ...catalog,
        };
        this.sortEnvironments(features);
        this.revision = changes.revision;
        this.version++;
      };
    }
    const names = [...changes.features];
    const { given, unread } = givenRecords(names, changes.records);
    const features = changes.patches
      ? applyPatches(this.parts.features, changes.patches)
      : [...given, ...(unread.length > 0 ? await loadFeatureRecords(tx, unread) : [])];
    const segments = changes.scopes.has('segments') ? await allSegments(tx) : undefined;
    const catalog = changes.scopes.has('catalog') ? await this.loadCatalog(tx) : undefined;
    return () => {
      this.revision = changes.revision;
      for (const name of names) this.parts.features.delete(name);
      for (const feature of features) this.parts.features.set(feature.name, feature);
      if (segments) this.parts.segments = new Map(segments.map((s) => [s.id, s]));
      if (catalog) this.parts = { ...this.parts, ...catalog };
      this.sortEnvironments(features);
      this.version++;
    };
  }

  /** The definitions features refer to by name: a `catalog` change reloads them, not the features. */
  private async loadCatalog(tx: Queryable) {
    const projects = await allProjects(tx);
    const contextFields = await allContextFields(tx);
    const definitions = await listStrategyDefinitions(tx);
    return {
      projects: new Map(projects.map((p) => [p.id, p])),
      privateProjects: new Set(projects.filter((p) => p.mode === 'private').map((p) => p.id)),
      contextFields,
      contextRules: rulesOf(contextFields),
      strategyDefinitions: byName(definitions),
    };
  }

  /** A feature's environments in the environments' order. */
  private sortEnvironments(features: FeatureRecord[]): void {
    const order = (name: string) => this.parts.environments.get(name)?.sortOrder ?? 0;
    for (const f of features) {
      f.environments.sort((a, b) => order(a.name) - order(b.name) || compareNames(a, b));
    }
  }

  /**
   * What SDK metrics change (in place, without a revision): when each feature and environment was
   * last seen, and the lifecycle stages reaching SDKs puts features in.
   */
  private async refreshLastSeen(): Promise<void> {
    const since = new Date(this.lastSeenSince.getTime() - 5_000);
    const started = new Date();
    const rows = await loadLastSeen(this.db, since);
    const stages = await stagesEnteredSince(this.db, since);
    let changed = false;
    const touched = (feature: FeatureRecord) => {
      this.seenStamps.set(feature, (this.seenStamps.get(feature) ?? 0) + 1);
      changed = true;
    };
    for (const row of rows) {
      const feature = this.parts.features.get(row.featureName);
      if (!feature) continue;
      const target =
        row.environment === null ? feature : feature.environments.find((e) => e.name === row.environment);
      if (!target || target.lastSeenAt?.getTime() === row.lastSeenAt.getTime()) continue;
      target.lastSeenAt = row.lastSeenAt;
      touched(feature);
    }
    for (const entered of stages) {
      const feature = this.parts.features.get(entered.featureName);
      if (!feature || feature.stages.some((st) => st.stage === entered.stage)) continue;
      feature.stages = [
        ...feature.stages,
        { stage: entered.stage, status: null, statusValue: null, enteredStageAt: entered.enteredStageAt },
      ];
      touched(feature);
    }
    // The database's clock is the one written; a few seconds of overlap cover the difference.
    this.lastSeenSince = started;
    if (changed) this.version++;
  }

  /** Moves when the feature's last-seen times or stages change (they are updated in place). */
  seenStamp(feature: FeatureRecord): number {
    return this.seenStamps.get(feature) ?? 0;
  }

  feature(name: string): FeatureRecord | undefined {
    return this.parts.features.get(name);
  }

  /** Every feature, archived ones included (for the SDK views, which filter). */
  allFeatures(): IterableIterator<FeatureRecord> {
    return this.parts.features.values();
  }

  /** The live features of a project, by name. */
  liveFeaturesOf(project: string): FeatureRecord[] {
    if (this.liveByProject.version !== this.version) {
      const lists = new Map<string, FeatureRecord[]>();
      for (const f of this.parts.features.values()) {
        if (f.archivedAt) continue;
        const list = lists.get(f.project) ?? [];
        list.push(f);
        lists.set(f.project, list);
      }
      for (const list of lists.values()) list.sort(compareNames);
      this.liveByProject = { version: this.version, lists };
    }
    return this.liveByProject.lists.get(project) ?? [];
  }

  /** A strategy by its id, with the feature it belongs to. */
  strategy(id: string): { strategy: FeatureStrategy; feature: FeatureRecord } | undefined {
    if (this.strategyIndex.version !== this.version) {
      const byId = new Map<string, FeatureRecord>();
      for (const f of this.parts.features.values()) for (const st of f.strategies) byId.set(st.id, f);
      this.strategyIndex = { version: this.version, byId };
    }
    const feature = this.strategyIndex.byId.get(id);
    const strategy = feature?.strategies.find((st) => st.id === id);
    return feature && strategy ? { strategy, feature } : undefined;
  }

  /** The names of the features that depend on this one, by name. */
  children(name: string): string[] {
    if (this.childIndex.version !== this.version) {
      const byParent = new Map<string, string[]>();
      for (const f of this.parts.features.values()) {
        for (const d of f.dependencies) byParent.set(d.feature, [...(byParent.get(d.feature) ?? []), f.name]);
      }
      for (const list of byParent.values()) list.sort();
      this.childIndex = { version: this.version, byParent };
    }
    return this.childIndex.byParent.get(name) ?? [];
  }

  project(id: string): ProjectRecord | undefined {
    return this.parts.projects.get(id);
  }

  /** The ids of the projects in the `private` mode (hidden from those not in them). */
  privateProjects(): ReadonlySet<string> {
    return this.parts.privateProjects;
  }

  environment(name: string): Environment | undefined {
    return this.parts.environments.get(name);
  }

  /** Every context field, in their order. */
  contextFields(): readonly ContextField[] {
    return this.parts.contextFields;
  }

  /**
   * The context fields as the constraint rules need them: for the constraints of a project's
   * features and segments (`null`: segments of no project), where other projects' fields are
   * refused; without a project, every field as it is.
   */
  contextRules(project?: string | null): ContextFields {
    if (project === undefined) return this.parts.contextRules;
    if (this.rulesByProject.version !== this.version) {
      this.rulesByProject = { version: this.version, byProject: new Map() };
    }
    const key = project ?? '';
    let rules = this.rulesByProject.byProject.get(key);
    if (!rules) {
      rules = rulesOf(this.parts.contextFields, project);
      this.rulesByProject.byProject.set(key, rules);
    }
    return rules;
  }

  strategyDefinition(name: string): StrategyDefinition | undefined {
    return this.parts.strategyDefinitions.get(name);
  }

  segment(id: number): Segment | undefined {
    return this.parts.segments.get(id);
  }

  segments(): Segment[] {
    return [...this.parts.segments.values()].sort((a, b) => a.id - b.id);
  }
}
