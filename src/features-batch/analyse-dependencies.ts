import type { Queryable } from '../db/database.js';
import { type DependencyRow, dependencyNeighbours, type FeatureRow } from '../features/import/service.js';
import type { Permission } from '../http/permissions.js';
import type { Changes, Findings, Instance } from './analysis.js';
import type { ImportData } from './data.js';

interface Wanted {
  feature: string;
  enabled: boolean;
  variants: string[];
}

/** A dependency as the data gives it, with the defaults of the endpoint that adds one by hand. */
function wantedOf(raw: unknown): Wanted | null {
  if (!raw || typeof raw !== 'object') return null;
  const d = raw as { feature?: unknown; enabled?: unknown; variants?: unknown };
  if (typeof d.feature !== 'string' || d.feature === '') return null;
  if (d.enabled !== undefined && typeof d.enabled !== 'boolean') return null;
  if (
    d.variants !== undefined &&
    !(Array.isArray(d.variants) && d.variants.every((v) => typeof v === 'string'))
  )
    return null;
  const enabled = d.enabled ?? true;
  return {
    feature: d.feature,
    enabled,
    variants: enabled ? [...new Set((d.variants as string[]) ?? [])] : [],
  };
}

const same = (a: Wanted | undefined, b: Wanted | undefined) =>
  a?.feature === b?.feature &&
  a?.enabled === b?.enabled &&
  (a?.variants ?? []).join('\u0000') === (b?.variants ?? []).join('\u0000');

/**
 * The dependencies of the imported features become the data's, by the rules of the endpoint that
 * adds one: one parent per feature, in this project (imported with it, or live here already),
 * never the feature itself, never a feature that has a parent; a feature with children gets none.
 */
export async function planDependencies(
  db: Queryable,
  data: ImportData,
  instance: Instance,
  rows: Map<string, FeatureRow>,
  errors: Findings,
  changes: Changes,
  needs: Set<Permission>,
): Promise<void> {
  const wanted = new Map<string, Wanted>();
  for (const item of data.dependencies) {
    const list = (item.dependencies ?? []).map(wantedOf);
    if (list.length === 0) continue;
    if (list.some((d) => d === null)) {
      errors.add('These dependencies are not of the form { feature, enabled?, variants? }:', item.at);
    } else if (list.length > 1 || wanted.has(item.feature)) {
      errors.add('A feature depends on one parent at most; these list more:', item.feature);
    } else if (!rows.has(item.feature)) {
      errors.add('These dependencies are of features the data does not import:', item.feature);
    } else wanted.set(item.feature, list[0]!);
  }
  const outside = [...new Set([...wanted.values()].map((d) => d.feature))].filter((p) => !rows.has(p));
  const found = await dependencyNeighbours(db, outside, [...rows.keys()]);
  const liveHere = (name: string) => {
    const row = rows.get(name);
    if (row) return row.archivedAt === null;
    const f = found.parents.get(name);
    return !!f && f.archivedAt === null && f.project === instance.project;
  };
  const hasParent = (name: string) =>
    rows.has(name) ? wanted.has(name) : found.parentsWithParents.has(name);
  // Parents once the import is in: of the children it leaves as they are, and of those it imports.
  const parentsAfter = new Set([
    ...found.children.filter((d) => !rows.has(d.child)).map((d) => d.feature),
    ...[...wanted.values()].map((d) => d.feature),
  ]);
  for (const [child, d] of wanted) {
    if (d.feature === child) errors.add('These features would depend on themselves:', child);
    else if (!liveHere(d.feature) || rows.get(child)?.archivedAt)
      errors.add(
        'These dependencies name parents that are neither imported nor live in this project, or are of archived features:',
        `${child} -> ${d.feature}`,
      );
    else if (hasParent(d.feature) || parentsAfter.has(child))
      errors.add('Dependencies are one level deep; these would make a chain:', `${child} -> ${d.feature}`);
  }
  for (const [name, row] of rows) {
    if (row.archivedAt !== null && !instance.features.get(name)?.archivedAt && parentsAfter.has(name))
      errors.add('These features are archived by the import while other features depend on them:', name);
  }
  for (const name of rows.keys()) {
    const before = instance.features.get(name)?.dependencies[0];
    const after = wanted.get(name);
    if (same(before, after)) continue;
    needs.add('UPDATE_FEATURE_DEPENDENCY');
    const event = { project: instance.project, featureName: name };
    if (!after) {
      changes.clearedDependencies.push(name);
      changes.events.push({ type: 'feature-dependencies-removed', ...event });
      continue;
    }
    const row: DependencyRow = { child: name, ...after };
    changes.dependencies.push(row);
    changes.events.push({ type: 'feature-dependency-added', ...event, data: after });
  }
}
