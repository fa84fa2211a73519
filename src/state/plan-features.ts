import { randomUUID } from 'node:crypto';
import { defaultRollout } from '../features/environments/service.js';
import type { FeatureRow } from '../features/import/service.js';
import { prepareVariants } from '../features/variants/rules.js';
import { attempt } from '../http/check.js';
import type { StateItems } from './document.js';
import type { Existing } from './existing.js';
import type { FeaturePlanning, Target } from './feature-planning.js';
import { decide, type ImportOptions, type Known, type Plan } from './plan.js';
import { planStrategies } from './plan-strategies.js';

const DEFAULT_PROJECT = 'default';

function metadata(
  f: { project: string; description: string | null; type: string; stale: boolean; impressionData: boolean },
  name: string,
  archived: boolean,
) {
  return {
    name,
    project: f.project,
    description: f.description,
    type: f.type,
    stale: f.stale,
    impressionData: f.impressionData,
    archived,
  };
}

/** Features as the document lists them: created, overwritten or left alone; each one's project. */
function planFeatureRows(
  items: StateItems,
  existing: Existing,
  options: ImportOptions,
  plan: Plan,
  known: Known,
) {
  const targets = new Map<string, Target>();
  const now = new Date().toISOString();
  for (const f of items.features) {
    const project = f.project ?? DEFAULT_PROJECT;
    if (!known.projects.has(project)) {
      plan.problems.push({
        path: `${f.at}.project`,
        message: `There is no project with the id "${project}": add it to \`projects\`.`,
      });
      continue;
    }
    const before = existing.features.get(f.name);
    if (before && !options.keep && before.project !== project) {
      plan.problems.push({
        path: `${f.at}.project`,
        message: `The feature "${f.name}" exists in the project "${before.project}": move it first, or import with drop.`,
      });
      continue;
    }
    const archived = f.archived ?? (f.archivedAt !== undefined && f.archivedAt !== null);
    const row: FeatureRow = {
      name: f.name,
      project,
      description: f.description || null,
      type: f.type ?? 'release',
      stale: f.stale ?? false,
      impressionData: f.impressionData ?? false,
      archivedAt: archived ? (f.archivedAt ?? before?.archivedAt?.toISOString() ?? now) : null,
      createdAt: f.createdAt ?? null,
    };
    const was = before && metadata(before, f.name, before.archivedAt !== null);
    const change = decide(was, metadata(row, f.name, archived), options.keep);
    targets.set(f.name, {
      project: before && !change ? before.project : project,
      before,
      ...(change && { row }),
    });
    if (change) plan.features.features.push(row);
  }
  const listed = new Set(items.features.map((f) => f.name));
  for (const [name, before] of existing.features) {
    if (!listed.has(name)) targets.set(name, { project: before.project, before });
  }
  return targets;
}

/**
 * The feature and environment an item refers to must exist (in the database or the document);
 * the feature's project gets the environment when it does not have it yet.
 */
export function placeOf(p: FeaturePlanning, item: { at: string; featureName: string; environment: string }) {
  const target = p.targets.get(item.featureName);
  if (!target) {
    p.plan.problems.push({
      path: `${item.at}.featureName`,
      message: `There is no feature named "${item.featureName}": add it to \`features\`.`,
    });
    return undefined;
  }
  if (!p.known.environments.has(item.environment)) {
    p.plan.problems.push({
      path: `${item.at}.environment`,
      message: `There is no environment named "${item.environment}": add it to \`environments\`.`,
    });
    return undefined;
  }
  const linked = p.known.projects.get(target.project)?.environments;
  if (linked && !linked.has(item.environment)) {
    linked.add(item.environment);
    p.plan.links.push({ project: target.project, environment: item.environment });
  }
  return target;
}

/** Each feature's state in each environment; answers the environments switched on. */
function planEnvironments(p: FeaturePlanning, environments: StateItems['featureEnvironments']): Set<string> {
  const switchedOn = new Set<string>();
  for (const e of environments) {
    const target = p.targets.get(e.featureName)!;
    const variants = attempt(p.plan.problems, `${e.at}.variants`, () =>
      prepareVariants(e.variants ?? [], `${e.at}.variants`),
    );
    const row = {
      featureName: e.featureName,
      environment: e.environment,
      enabled: e.enabled,
      variants: variants ?? [],
    };
    const was = target.before?.environments.find((x) => x.name === e.environment);
    const before = was && {
      featureName: e.featureName,
      environment: was.name,
      enabled: was.enabled,
      variants: was.variants,
    };
    if (!decide(before, row, p.options.keep)) continue;
    p.plan.features.environments.push(row);
    p.touched.add(e.featureName);
    if (row.enabled) switchedOn.add(`${e.featureName}:${e.environment}`);
  }
  // A new feature is in every environment of its project; those the document leaves out, switched off.
  const given = new Set(environments.map((e) => `${e.featureName}:${e.environment}`));
  for (const [name, target] of p.targets) {
    if (target.before || !target.row) continue;
    for (const environment of p.known.projects.get(target.project)?.environments ?? []) {
      if (!given.has(`${name}:${environment}`)) {
        p.plan.features.environments.push({ featureName: name, environment, enabled: false, variants: [] });
      }
    }
  }
  return switchedOn;
}

function planFeatureTags(p: FeaturePlanning): void {
  const tagged = new Set<string>();
  for (const t of p.items.featureTags) {
    const target = p.targets.get(t.featureName);
    if (!target) {
      p.plan.problems.push({
        path: `${t.at}.featureName`,
        message: `There is no feature named "${t.featureName}": add it to \`features\`.`,
      });
      continue;
    }
    const tag = { type: t.tagType ?? 'simple', value: t.tagValue };
    const key = `${t.featureName}:${tag.type}:${tag.value}`;
    if (tagged.has(key) || target.before?.tags.some((x) => x.type === tag.type && x.value === tag.value))
      continue;
    tagged.add(key);
    p.plan.features.tags.push({ featureName: t.featureName, ...tag });
    p.plan.events.push({
      type: 'feature-tag-import',
      project: target.project,
      featureName: t.featureName,
      data: tag,
    });
    p.touched.add(t.featureName);
  }
}

/** Features with their environments, strategies and tags, then one `feature-import` event per feature changed. */
export function planFeatures(
  items: StateItems,
  existing: Existing,
  options: ImportOptions,
  plan: Plan,
  known: Known,
) {
  const targets = planFeatureRows(items, existing, options, plan, known);
  plan.features.created = new Set([...targets].filter(([, t]) => !t.before && t.row).map(([name]) => name));
  const p: FeaturePlanning = {
    items,
    existing,
    options,
    plan,
    known,
    targets,
    touched: new Set(plan.features.features.map((f) => f.name)),
  };
  // Every place first: the environments they need are linked before new features take their projects' list.
  const environments = items.featureEnvironments.filter((e) => placeOf(p, e));
  const strategies = items.featureStrategies.filter((s) => placeOf(p, s));
  const switchedOn = planEnvironments(p, environments);
  const placed = planStrategies(p, strategies);
  planFeatureTags(p);

  // An environment switched on without any strategy gets the one `on` would add.
  for (const key of switchedOn) {
    if (placed.has(key)) continue;
    const [featureName, environment] = key.split(':') as [string, string];
    const project = targets.get(featureName)!.project;
    const stickiness = known.projects.get(project)?.defaultStickiness || 'default';
    plan.features.strategies.push({
      id: randomUUID(),
      featureName,
      environment,
      ...defaultRollout({ groupId: featureName, stickiness }),
      sortOrder: 0,
    });
  }

  for (const name of [...p.touched].sort()) {
    const target = targets.get(name)!;
    const before = target.before && metadata(target.before, name, target.before.archivedAt !== null);
    const after = target.row ? metadata(target.row, name, target.row.archivedAt !== null) : before;
    plan.events.push({
      type: 'feature-import',
      project: target.project,
      featureName: name,
      data: after,
      preData: before ?? null,
    });
  }
}
