import type { AppContext } from '../app-context.js';
import type { Constraint } from '../constraints/rules.js';
import { strategyToAdd } from '../features/environments/switch-service.js';
import { ValidationError } from '../http/errors.js';
import type { Identity } from '../http/identity.js';
import type { ProjectVisibility } from '../http/visibility.js';
import type { SentContext } from '../playground/contexts.js';
import type { FlagSource } from '../playground/flags.js';
import { readAdvancedPlayground } from '../playground/service.js';
import type { FeatureRecord } from '../read-model/queries.js';
import type { Segment } from '../segments/types.js';
import { requestOf } from './access.js';
import { changeRelease, type ReleaseParts, releasePartsOf, switchedOn } from './release-preview.js';
import { type ChangeRow, CLOSED_STATES, changesOf } from './store.js';

// biome-ignore lint/suspicious/noExplicitAny: a payload checked against its action's schema when added
type Payload = Record<string, any>;
type FeatureStrategy = FeatureRecord['strategies'][number];

function parameters(sent: Record<string, unknown> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, String(v)]));
}

/** A strategy the change adds or changes, as the model would hold it. */
function strategy(
  base: Partial<FeatureStrategy> & Pick<FeatureStrategy, 'id' | 'featureName' | 'environment'>,
  p: Payload,
) {
  return {
    ...base,
    name: p.name ?? base.name ?? 'default',
    title: p.title !== undefined ? p.title : (base.title ?? null),
    disabled: p.disabled ?? base.disabled ?? false,
    parameters: p.parameters !== undefined ? parameters(p.parameters) : (base.parameters ?? {}),
    constraints: (p.constraints ?? base.constraints ?? []) as Constraint[],
    variants: p.variants ?? base.variants ?? [],
    segments: p.segments ?? base.segments ?? [],
    sortOrder: p.sortOrder ?? base.sortOrder ?? Number.MAX_SAFE_INTEGER,
    createdAt: base.createdAt ?? new Date(),
  } as FeatureStrategy;
}

/** What the preview reads before it is made: the release plans' parts, and the strategy each flag switched on would get. */
interface Reads {
  releases: ReleaseParts;
  onSwitch: Map<string, Payload>;
}

/** The strategy each flag the request switches on would be given, were none active there then. */
async function strategiesOnSwitch(
  ctx: AppContext,
  project: string,
  environment: string,
  changes: readonly ChangeRow[],
): Promise<Map<string, Payload>> {
  const added = new Map<string, Payload>();
  for (const c of changes) {
    if (c.feature === null || c.action !== 'updateEnabled' || !c.payload.enabled || added.has(c.feature))
      continue;
    try {
      added.set(
        c.feature,
        await strategyToAdd(ctx.db, ctx.model, { project, featureName: c.feature, environment }),
      );
    } catch (error) {
      // The project's default no longer fits: applying would be refused, and the preview goes without it.
      if (!(error instanceof ValidationError)) throw error;
    }
  }
  return added;
}

/** Carries out one change on a copy of its flag. */
function change(f: FeatureRecord, c: ChangeRow, environment: string, reads: Reads): void {
  const p = c.payload as Payload;
  const state = f.environments.find((e) => e.name === environment);
  const inEnvironment = (s: FeatureStrategy) => s.environment === environment;
  switch (c.action) {
    case 'updateEnabled': {
      if (state) state.enabled = p.enabled;
      if (!p.enabled) return;
      if (p.shouldActivateDisabledStrategies) {
        f.strategies = f.strategies.map((s) => (inEnvironment(s) ? { ...s, disabled: false } : s));
      }
      // As the switch does: with no active strategy, a waiting plan starts, or else one is added.
      if (f.strategies.some((s) => inEnvironment(s) && !s.disabled)) return;
      if (switchedOn(f, environment, reads.releases)) return;
      const added = reads.onSwitch.get(f.name);
      if (added)
        f.strategies.push(strategy({ id: `change-${c.id}`, featureName: f.name, environment }, added));
      return;
    }
    case 'addStrategy':
      f.strategies.push(strategy({ id: `change-${c.id}`, featureName: f.name, environment }, p));
      return;
    case 'updateStrategy':
      f.strategies = f.strategies.map((s) => (s.id === p.id ? strategy(s, p) : s));
      return;
    case 'deleteStrategy':
      f.strategies = f.strategies.filter((s) => s.id !== p.id);
      return;
    case 'reorderStrategy': {
      const order = new Map(
        (p as unknown as { id: string; sortOrder: number }[]).map((o) => [o.id, o.sortOrder]),
      );
      f.strategies = f.strategies.map((s) =>
        inEnvironment(s) && order.has(s.id) ? { ...s, sortOrder: order.get(s.id)! } : s,
      );
      return;
    }
    case 'patchVariant':
      if (state) state.variants = p.variants;
      return;
    case 'archiveFeature':
      f.archivedAt = new Date();
      return;
    case 'addDependency':
      f.dependencies = [{ feature: p.feature, enabled: p.enabled ?? true, variants: p.variants ?? [] }];
      return;
    case 'deleteDependency':
      f.dependencies = [];
      return;
    // Served only while its milestone is the started one, which is when the flag serves it.
    case 'updateMilestoneStrategy':
      f.releaseStrategies = f.releaseStrategies.map((s) =>
        s.id === p.id && inEnvironment(s) ? strategy(s, p) : s,
      );
      return;
    default:
      changeRelease(f, c, environment, reads.releases);
  }
}

/** The flags and segments as the request would leave them, the rest as they are. */
function previewOf(
  ctx: AppContext,
  environment: string,
  changes: readonly ChangeRow[],
  reads: Reads,
): FlagSource {
  const features = new Map<string, FeatureRecord>();
  const segments = new Map<number, Segment>();
  for (const c of changes) {
    if (c.feature === null) {
      const id = Number(c.payload.id);
      const base = segments.get(id) ?? ctx.model.segment(id);
      if (base && c.action === 'updateSegment') {
        const { name, description, constraints } = c.payload as Payload;
        segments.set(id, { ...base, name, description: description ?? null, constraints });
      }
      continue;
    }
    const base = features.get(c.feature) ?? ctx.model.feature(c.feature);
    if (!base) continue;
    const copy = features.get(c.feature) ?? structuredClone(base);
    change(copy, c, environment, reads);
    features.set(c.feature, copy);
  }
  for (const f of features.values()) {
    // Evaluation order within the environment, as the model keeps it; the others as they were.
    const here = f.strategies
      .filter((s) => s.environment === environment)
      .sort((a, b) => a.sortOrder - b.sortOrder);
    f.strategies = [...f.strategies.filter((s) => s.environment !== environment), ...here];
  }
  const model = ctx.model;
  return {
    feature: (name) => features.get(name) ?? model.feature(name),
    *allFeatures() {
      for (const f of model.allFeatures()) yield features.get(f.name) ?? f;
    },
    liveFeaturesOf: (project) =>
      model
        .liveFeaturesOf(project)
        .map((f) => features.get(f.name) ?? f)
        .filter((f) => !f.archivedAt),
    segment: (id) => segments.get(id) ?? model.segment(id),
    environment: (name) => model.environment(name),
  };
}

/**
 * The playground for the request's project and environment, its flags as the request would leave
 * them: what its reviewers approve, tried out with a context.
 */
export async function previewRequest(
  ctx: AppContext,
  identity: Identity,
  visibility: ProjectVisibility,
  id: number,
  project: string,
  context: SentContext,
): Promise<Buffer> {
  const request = await requestOf(ctx.db, identity, project, id);
  if (CLOSED_STATES.includes(request.state)) {
    throw new ValidationError(
      `A change request in the state "${request.state}" is closed: there is nothing to preview.`,
    );
  }
  const changes = await changesOf(ctx.db, [id]);
  const reads = {
    releases: await releasePartsOf(ctx, request.environment, changes),
    onSwitch: await strategiesOnSwitch(ctx, request.project, request.environment, changes),
  };
  const source = previewOf(ctx, request.environment, changes, reads);
  return readAdvancedPlayground(
    source,
    { environments: [request.environment], projects: [request.project], context },
    visibility,
  );
}
