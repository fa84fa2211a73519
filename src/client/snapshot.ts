import { LRUCache } from 'lru-cache';
import { ServiceUnavailableError } from '../http/errors.js';
import type { FeatureModel } from '../read-model/model.js';
import type { FeatureRecord } from '../read-model/queries.js';
import {
  type CompiledFeature,
  compiledFeature,
  type Evaluation,
  type FlagSet,
} from './evaluation/evaluate.js';
import type { ClientFeature, Constraint, Context, Segment, VariantDefinition } from './evaluation/types.js';

/** SDK requests never wait for the database: before the first load there is nothing to serve. */
export function assertReady(snapshot: FlagSnapshot): void {
  if (!snapshot.ready) {
    throw new ServiceUnavailableError(
      'The flag configuration has not been loaded from the database yet: try again in a moment.',
    );
  }
}

/**
 * A strategy as SDKs get it: what they evaluate, in the order they evaluate it. Its id, title and
 * sort order are the admin's (Unleash leaves them out of the client API too: strategy ids broke old
 * Go SDKs), and what is empty or false is left out, as SDKs and Edge read it absent so.
 */
export interface ServedStrategy {
  name: string;
  constraints: Constraint[];
  parameters: Record<string, string>;
  /** Only when the strategy has segments. */
  segments?: number[];
  variants: VariantDefinition[];
}

/** A feature as SDKs get it, for one environment. */
export interface ServedFeature extends ClientFeature {
  name: string;
  type: string;
  /** Only when there is one: SDKs do not evaluate it and Edge passes on no null. */
  description?: string;
  project: string;
  enabled: boolean;
  stale: boolean;
  impressionData: boolean;
  strategies: ServedStrategy[];
  variants: VariantDefinition[];
}

/** What the answers cache holds: an answer's encoded body decides its size. */
export interface CachedAnswer {
  body: Buffer;
}

/**
 * The answers cache is bounded by bytes, not by count: a few large answers (every flag of every
 * project) or many small ones (odd name prefixes) fill it alike, and the least recently asked go.
 */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const MAX_ANSWERS = 10_000;
/** What an entry costs besides its body and key: the answer's object, its ETag, the LRU's slots. */
const ENTRY_OVERHEAD_BYTES = 1024;

export interface SegmentDetails {
  id: number;
  name: string;
  constraints: Constraint[];
}

interface EnvironmentFlags {
  /** Sorted by name. */
  list: ServedFeature[];
  byName: Map<string, ServedFeature>;
  /** The list compiled for evaluating, of a set of projects (a token's; `*`: all), made when first asked. */
  compiled: Map<string, CompiledFeature[]>;
}

/** A constraint without its switches that are off: every SDK reads an absent one as false. */
function servedConstraint(c: Constraint): Constraint {
  if (c.inverted !== false && c.caseInsensitive !== false) return c;
  const { inverted, caseInsensitive, ...rest } = c;
  return { ...rest, ...(inverted ? { inverted } : {}), ...(caseInsensitive ? { caseInsensitive } : {}) };
}

/**
 * A feature as served in an environment, or undefined when it is not served there. An environment
 * whose strategies are all disabled is served off: without its strategies an SDK would otherwise
 * read "on, no strategies" as on for everyone.
 */
function serve(f: FeatureRecord, environment: string): ServedFeature | undefined {
  if (f.archivedAt) return undefined;
  const state = f.environments.find((e) => e.name === environment);
  if (!state) return undefined;
  // A release plan's started milestone goes first, as Unleash shows the plan above the strategies.
  const here = [...f.releaseStrategies, ...f.strategies].filter((s) => s.environment === environment);
  const active = here.filter((s) => !s.disabled);
  return {
    name: f.name,
    type: f.type,
    ...(f.description != null ? { description: f.description } : {}),
    project: f.project,
    enabled: state.enabled && !(here.length > 0 && active.length === 0),
    stale: f.stale,
    impressionData: f.impressionData,
    strategies: active.map((s) => ({
      name: s.name,
      constraints: (s.constraints as Constraint[]).map(servedConstraint),
      parameters: s.parameters,
      ...(s.segments.length > 0 ? { segments: s.segments } : {}),
      variants: s.variants as VariantDefinition[],
    })),
    variants: state.variants as VariantDefinition[],
    // Only when there is one, as Unleash serves it.
    ...(f.dependencies.length > 0 ? { dependencies: f.dependencies } : {}),
  };
}

/**
 * What SDKs are served, derived from the feature model for its current version: per environment,
 * the live features in name order. Built on first use after a change; a feature that did not
 * change keeps its served form (and the JSON made of it), so a change costs what it touched.
 */
export class FlagSnapshot {
  private version = -1;
  private environments = new Map<string, EnvironmentFlags>();
  private readonly served = new WeakMap<FeatureRecord, Map<string, ServedFeature | undefined>>();
  private readonly json = new WeakMap<ServedFeature, string>();
  /** How evaluations look up parents and segments, per environment (always the current version). */
  private readonly flagSets = new Map<string, FlagSet>();
  /** Answers already built for this version, by query; dropped when the version moves. */
  private readonly answers = new LRUCache<string, CachedAnswer>({
    max: MAX_ANSWERS,
    maxSize: MAX_ANSWER_BYTES,
    sizeCalculation: (answer, key) => answer.body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES,
  });

  constructor(private readonly model: FeatureModel) {}

  /** Whether the first load of the configuration is done: before, there is nothing to serve. */
  get ready(): boolean {
    return this.model.revision >= 0;
  }

  get revision(): number {
    return this.model.revision;
  }

  private current(): void {
    if (this.version === this.model.version) return;
    this.version = this.model.version;
    this.environments = new Map();
    this.answers.clear();
  }

  private servedIn(f: FeatureRecord, environment: string): ServedFeature | undefined {
    let byEnvironment = this.served.get(f);
    if (!byEnvironment) {
      byEnvironment = new Map();
      this.served.set(f, byEnvironment);
    }
    if (!byEnvironment.has(environment)) byEnvironment.set(environment, serve(f, environment));
    return byEnvironment.get(environment);
  }

  private flags(environment: string): EnvironmentFlags {
    this.current();
    let flags = this.environments.get(environment);
    if (!flags) {
      const list: ServedFeature[] = [];
      for (const f of this.model.allFeatures()) {
        const served = this.servedIn(f, environment);
        if (served) list.push(served);
      }
      list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      flags = { list, byName: new Map(list.map((f) => [f.name, f])), compiled: new Map() };
      this.environments.set(environment, flags);
    }
    return flags;
  }

  features(environment: string): ServedFeature[] {
    return this.flags(environment).list;
  }

  /**
   * The features of some projects (`*`: all), sorted by name, compiled for evaluating: a request
   * walks these and nothing else (not every other project's flags, not a lookup per flag).
   */
  compiledOf(environment: string, projects: readonly string[]): CompiledFeature[] {
    const flags = this.flags(environment);
    const every = projects.includes('*');
    const key = every ? '*' : [...new Set(projects)].sort().join('\n');
    let list = flags.compiled.get(key);
    if (!list) {
      const wanted = new Set(projects);
      list = flags.list.filter((f) => every || wanted.has(f.project)).map(compiledFeature);
      flags.compiled.set(key, list);
    }
    return list;
  }

  /** How evaluations in the environment find parents and segments (always those of the current version). */
  flagSet(environment: string): FlagSet {
    let flags = this.flagSets.get(environment);
    if (!flags) {
      flags = { feature: (name) => this.feature(environment, name), segment: (id) => this.segment(id) };
      this.flagSets.set(environment, flags);
    }
    return flags;
  }

  feature(environment: string, name: string): ServedFeature | undefined {
    return this.flags(environment).byName.get(name);
  }

  /** The feature's JSON as served, made once per served form. */
  jsonOf(feature: ServedFeature): string {
    let text = this.json.get(feature);
    if (text === undefined) {
      text = JSON.stringify(feature);
      this.json.set(feature, text);
    }
    return text;
  }

  /** The model's own record, so what is compiled from it lasts until the segment changes. */
  segment(id: number): Segment | undefined {
    return this.model.segment(id) as Segment | undefined;
  }

  /**
   * A served feature of the environment evaluated for a context, as an SDK would, by its compiled
   * form (made once per served form, so once per change of the flag).
   */
  evaluate(environment: string, feature: ServedFeature, context: Context): Evaluation {
    return compiledFeature(feature).evaluate(context, this.flagSet(environment));
  }

  segmentDetails(id: number): SegmentDetails | undefined {
    const s = this.model.segment(id);
    return s ? { id: s.id, name: s.name, constraints: s.constraints as Constraint[] } : undefined;
  }

  /** Every segment, by id. */
  allSegments(): SegmentDetails[] {
    return this.model
      .segments()
      .map((s) => ({ id: s.id, name: s.name, constraints: s.constraints as Constraint[] }));
  }

  hasTag(featureName: string, tag: string): boolean {
    return this.model.feature(featureName)?.tags.some((t) => `${t.type}:${t.value}` === tag) ?? false;
  }

  /** Whether a project of this id exists (its features may all be elsewhere or archived). */
  knowsProject(id: string): boolean {
    return this.model.project(id) !== undefined;
  }

  /** The answers cache (bounded), emptied first when the configuration moved on. */
  answerCache(): LRUCache<string, CachedAnswer> {
    this.current();
    return this.answers;
  }
}
