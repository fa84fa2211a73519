import { randomUUID } from 'node:crypto';
import { describeStrategy } from '../features/core/service.js';
import { defaultRollout } from '../features/environments/service.js';
import { prepareVariants, type Variant } from '../features/variants/rules.js';
import { attempt } from '../http/check.js';
import type { ErrorDetail } from '../http/errors.js';
import type { Permission } from '../http/permissions.js';
import type { FeatureRecord } from '../read-model/queries.js';
import { behaviour, type PlannedStrategy } from './analyse-strategies.js';
import { type Changes, type Findings, type Instance, sameJson } from './analysis.js';
import type { ImportData } from './data.js';

export interface FeaturePlan {
  name: string;
  before: FeatureRecord | undefined;
  strategies: PlannedStrategy[];
  environment: ImportData['featureEnvironments'][number] | undefined;
}

/**
 * The feature's strategies, state and variants in the environment become the data's. Strategies
 * are replaced only when they would behave otherwise; switched on without any, it gets the
 * strategy `on` adds.
 */
export function planEnvironment(
  instance: Instance,
  errors: Findings,
  changes: Changes,
  needs: Set<Permission>,
  f: FeaturePlan,
) {
  const environment = instance.environment;
  const event = { project: instance.project, featureName: f.name, environment };
  const was = f.before?.environments.find((e) => e.name === environment);
  const current = (f.before?.strategies ?? []).filter((s) => s.environment === environment);
  let strategies = current.length;
  if (
    !sameJson(
      current.map(behaviour),
      f.strategies.map((p) => behaviour({ ...p.row, segments: p.segments })),
    )
  ) {
    if (current.length > 0) {
      needs.add('DELETE_FEATURE_STRATEGY');
      changes.replaced.push(f.name);
      for (const s of current)
        changes.events.push({ type: 'feature-strategy-remove', ...event, preData: describeStrategy(s) });
    }
    for (const { row, segments } of f.strategies) {
      needs.add('CREATE_FEATURE_STRATEGY');
      changes.strategies.push(row);
      changes.strategySegments.set(row.id, segments);
      changes.events.push({
        type: 'feature-strategy-add',
        ...event,
        data: describeStrategy({ ...row, segments }),
      });
    }
    strategies = f.strategies.length;
  }
  const problems: ErrorDetail[] = [];
  const sent = f.environment?.variants;
  const variants: Variant[] =
    sent === undefined
      ? ((was?.variants ?? []) as Variant[])
      : (attempt(problems, `${f.environment!.at}.variants`, () =>
          prepareVariants(sent, `${f.environment!.at}.variants`),
        ) ?? []);
  errors.addProblems(problems);
  const enabled = f.environment?.enabled ?? was?.enabled ?? false;
  const wasEnabled = was?.enabled ?? false;
  const wasVariants = was?.variants ?? [];
  if (!f.before || enabled !== wasEnabled || !sameJson(variants, wasVariants)) {
    changes.environments.push({ featureName: f.name, environment, enabled, variants });
  }
  if (enabled !== wasEnabled) {
    needs.add('UPDATE_FEATURE_ENVIRONMENT');
    const type = enabled ? 'feature-environment-enabled' : 'feature-environment-disabled';
    changes.events.push({ type, ...event, data: { enabled }, preData: { enabled: wasEnabled } });
  }
  if (!sameJson(variants, wasVariants)) {
    needs.add('UPDATE_FEATURE_ENVIRONMENT_VARIANTS');
    changes.events.push({
      type: 'feature-environment-variants-updated',
      ...event,
      data: { variants },
      preData: { variants: wasVariants },
    });
  }
  if (enabled && strategies === 0) {
    needs.add('CREATE_FEATURE_STRATEGY');
    const stickiness = instance.defaultStickiness || 'default';
    const row = {
      id: randomUUID(),
      featureName: f.name,
      environment,
      ...defaultRollout({ groupId: f.name, stickiness }),
      sortOrder: 0,
    };
    changes.strategies.push(row);
    changes.events.push({
      type: 'feature-strategy-add',
      ...event,
      data: describeStrategy({ ...row, segments: [] }),
    });
  }
}

/** The feature's tags become the data's: those it lacks are added, those the data leaves out removed. */
export function planTags(
  featureTags: ImportData['featureTags'],
  instance: Instance,
  errors: Findings,
  changes: Changes,
  needs: Set<Permission>,
  name: string,
  before: FeatureRecord | undefined,
) {
  const wanted = new Map<string, { type: string; value: string }>();
  for (const t of featureTags) {
    const tag = { type: t.tagType ?? 'simple', value: t.tagValue };
    if (!instance.tagTypes.has(tag.type) && !changes.tagTypes.some((x) => x.name === tag.type)) {
      errors.add(
        'These tags are of types that exist neither here nor in `data.tagTypes`:',
        `${tag.type}:${tag.value}`,
      );
    }
    wanted.set(`${tag.type}:${tag.value}`, tag);
  }
  const had = new Map((before?.tags ?? []).map((t) => [`${t.type}:${t.value}`, t]));
  const added = [...wanted].filter(([key]) => !had.has(key)).map(([, t]) => t);
  const removed = [...had].filter(([key]) => !wanted.has(key)).map(([, t]) => t);
  if (added.length === 0 && removed.length === 0) return;
  needs.add('UPDATE_FEATURE');
  if (removed.length > 0) changes.retagged.push(name);
  const kept = removed.length > 0 ? [...wanted.values()] : added;
  changes.tags.push(...kept.map((t) => ({ featureName: name, ...t })));
  const event = { project: instance.project, featureName: name };
  for (const t of added) changes.events.push({ type: 'feature-tagged', ...event, data: t });
  for (const t of removed) changes.events.push({ type: 'feature-untagged', ...event, preData: t });
}
