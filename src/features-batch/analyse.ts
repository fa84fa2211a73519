import type { Queryable } from '../db/database.js';
import type { FeatureRow } from '../features/import/service.js';
import type { Permission } from '../http/permissions.js';
import type { ProjectVisibility } from '../http/visibility.js';
import { planDependencies } from './analyse-dependencies.js';
import { planEnvironment, planTags } from './analyse-feature.js';
import { planStrategiesOf } from './analyse-strategies.js';
import {
  type Analysis,
  analyseContextFields,
  type Changes,
  Findings,
  type Instance,
  readInstance,
  sameJson,
} from './analysis.js';
import type { ImportData } from './data.js';

function describe(name: string, f: Omit<FeatureRow, 'name' | 'createdAt'>) {
  return {
    name,
    description: f.description,
    type: f.type,
    project: f.project,
    stale: f.stale,
    impressionData: f.impressionData,
    archived: f.archivedAt !== null,
  };
}

/** The features of the data this import writes (new, or live in the project), each with its row. */
function planFeatures(
  data: ImportData,
  instance: Instance,
  errors: Findings,
  warnings: Findings,
  changes: Changes,
  needs: Set<Permission>,
  visible: ProjectVisibility,
) {
  const rows = new Map<string, FeatureRow>();
  const seen = new Set<string>();
  const now = new Date().toISOString();
  for (const f of data.features) {
    if (seen.has(f.name)) {
      errors.add('The data lists these features more than once:', f.name);
      continue;
    }
    seen.add(f.name);
    const before = instance.features.get(f.name);
    if (before && before.project !== instance.project) {
      errors.add(
        'These features exist in another project; move them here first:',
        visible.sees(before.project)
          ? `${f.name} (in project ${before.project})`
          : `${f.name} (in a project you cannot see)`,
      );
      continue;
    }
    if (before?.archivedAt) {
      warnings.add(
        'These features are archived here and are not imported; revive them first to import them:',
        f.name,
      );
      continue;
    }
    const row: FeatureRow = {
      name: f.name,
      project: instance.project,
      description: f.description || null,
      type: f.type ?? 'release',
      stale: f.stale ?? false,
      impressionData: f.impressionData ?? false,
      archivedAt: f.archived ? now : null,
      createdAt: null,
    };
    rows.set(f.name, row);
    if (f.archived) needs.add('DELETE_FEATURE');
    if (!before) {
      needs.add('CREATE_FEATURE');
      changes.features.push(row);
      changes.events.push({
        type: 'feature-created',
        project: row.project,
        featureName: f.name,
        data: describe(f.name, row),
      });
      // Every environment of the project, off; the import's own one is planned with its state.
      for (const environment of instance.projectEnvironments.filter((e) => e !== instance.environment)) {
        changes.environments.push({ featureName: f.name, environment, enabled: false, variants: [] });
      }
      continue;
    }
    warnings.add('These features exist in this project and will be overwritten:', f.name);
    const was = describe(f.name, { ...before, archivedAt: before.archivedAt?.toISOString() ?? null });
    if (sameJson(was, describe(f.name, row))) continue;
    needs.add('UPDATE_FEATURE');
    changes.features.push(row);
    changes.events.push({
      type: 'feature-metadata-updated',
      project: row.project,
      featureName: f.name,
      data: describe(f.name, row),
      preData: was,
    });
    if (row.stale !== before.stale) {
      changes.events.push({
        type: row.stale ? 'feature-stale-on' : 'feature-stale-off',
        project: row.project,
        featureName: f.name,
      });
    }
  }
  for (const row of rows.values()) {
    if (row.archivedAt && !instance.features.get(row.name)?.archivedAt) {
      changes.events.push({
        type: 'feature-archived',
        project: row.project,
        featureName: row.name,
        data: describe(row.name, row),
      });
    }
  }
  return rows;
}

function groupByFeature<T extends { featureName: string }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.featureName);
    if (group) group.push(item);
    else groups.set(item.featureName, [item]);
  }
  return groups;
}

/** Items that refer to features the data does not list are refused: nothing would hold them. */
function unlisted(data: ImportData, errors: Findings): void {
  const listed = new Set(data.features.map((f) => f.name));
  const items = [...data.featureStrategies, ...data.featureEnvironments, ...data.featureTags];
  for (const item of items.filter((i) => !listed.has(i.featureName))) {
    errors.add(
      'These items refer to features the data does not list:',
      `${item.at.replace(/\.(\d+)$/, '[$1]')} (${item.featureName})`,
    );
  }
}

/**
 * Unleash's import of one project's features into one environment, worked out without writing:
 * its errors, its warnings, the permissions it needs, and every change it makes. A feature's
 * strategies in the environment, its state and variants there and its tags become the data's;
 * what already matches is left as it is. A project `visible` hides is not named in its findings.
 */
export async function analyse(
  db: Queryable,
  body: { project: string; environment: string },
  data: ImportData,
  lock: boolean,
  visible: ProjectVisibility,
): Promise<Analysis> {
  const instance = await readInstance(db, body, data, lock);
  const errors = new Findings();
  const warnings = new Findings();
  const needs = new Set<Permission>();
  const changes: Changes = {
    contextFields: [],
    tagTypes: [],
    features: [],
    environments: [],
    replaced: [],
    strategies: [],
    strategySegments: new Map(),
    retagged: [],
    tags: [],
    clearedDependencies: [],
    dependencies: [],
    events: [],
  };
  const rules = analyseContextFields(data, instance, errors, changes, needs);
  for (const t of data.tagTypes) {
    if (instance.tagTypes.has(t.name) || changes.tagTypes.some((x) => x.name === t.name)) continue;
    changes.tagTypes.push({ name: t.name, description: t.description ?? null, icon: t.icon ?? null });
    needs.add('CREATE_TAG_TYPE');
  }
  unlisted(data, errors);
  const rows = planFeatures(data, instance, errors, warnings, changes, needs, visible);
  const context = { data, instance, rules, errors, warnings };
  // Grouped once: looked up per feature, thousands of features made the analysis quadratic.
  const strategiesOf = groupByFeature(data.featureStrategies);
  const tagsOf = groupByFeature(data.featureTags);
  const environmentOf = new Map<string, ImportData['featureEnvironments'][number]>();
  for (const e of data.featureEnvironments)
    if (!environmentOf.has(e.featureName)) environmentOf.set(e.featureName, e);
  for (const name of rows.keys()) {
    const before = instance.features.get(name);
    const strategies = planStrategiesOf(name, strategiesOf.get(name) ?? [], context);
    const environment = environmentOf.get(name);
    planEnvironment(instance, errors, changes, needs, { name, before, strategies, environment });
    planTags(tagsOf.get(name) ?? [], instance, errors, changes, needs, name, before);
  }
  await planDependencies(db, data, instance, rows, errors, changes, needs);
  for (const l of data.links.filter((l) => (l.links ?? []).length > 0)) {
    warnings.add('Flagpole has no feature links; the links of these features are not imported:', l.feature);
  }
  changes.events.push({
    type: 'features-imported',
    project: instance.project,
    environment: instance.environment,
    data: { features: [...rows.keys()] },
  });
  return { errors: errors.list(), warnings: warnings.list(), needs, changes };
}
