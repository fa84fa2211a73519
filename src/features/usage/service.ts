import type { AppContext } from '../../app-context.js';
import { getContextField, writeContextFieldDeletion } from '../../context/service.js';
import type { Queryable } from '../../db/database.js';
import { checkAgainOnDuplicate } from '../../db/errors.js';
import { NameExistsError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import type { ProjectVisibility } from '../../http/visibility.js';
import type { FeatureModel } from '../../read-model/model.js';
import {
  assertSegmentNameFree,
  checkedSegmentValues,
  getSegment,
  getVisibleSegment,
  type SegmentInput,
  segmentsUsingContext,
  writeSegmentChange,
  writeSegmentDeletion,
} from '../../segments/service.js';
import { getDeletableStrategyType, writeStrategyTypeDeletion } from '../../strategies/service.js';
import { featuresUsingContextField, featuresUsingStrategyType, strategiesUsingSegment } from './store.js';

// The changes of segments, context fields and strategy types that depend on the strategies using
// them. They run here, above segments/, context/ and strategies/, which know nothing of features.

/**
 * The strategies (of live and archived features) that use the segment, but those of projects
 * hidden from the caller; 404 for an unknown segment, or one of such a project.
 */
export async function readSegmentStrategies(db: Queryable, id: number, visible: ProjectVisibility) {
  await getVisibleSegment(db, id, visible);
  const strategies = await strategiesUsingSegment(db, id);
  return { strategies: strategies.filter((s) => visible.sees(s.projectId)), changeRequestStrategies: [] };
}

/** Replaces a segment's values; limiting it to a project is refused (409) while strategies elsewhere use it. */
export async function changeSegment(ctx: AppContext, identity: Identity, id: number, input: SegmentInput) {
  const actor = actorOf(identity);
  const change = () =>
    ctx.db.transaction(async (tx) => {
      const values = await checkedSegmentValues(tx, ctx.model.contextRules(input.project ?? null), input);
      // Exclusive: limiting it to a project checks the strategies using it.
      const before = await getSegment(tx, id, { lock: 'exclusive' });
      await assertSegmentNameFree(tx, values.name, id);
      if (values.project !== null) {
        const elsewhere = (await strategiesUsingSegment(tx, id)).filter(
          (s) => s.projectId !== values.project,
        );
        if (elsewhere.length > 0) {
          throw new NameExistsError(
            `The segment is used by strategies outside the project "${values.project}" ` +
              `(features ${[...new Set(elsewhere.map((s) => s.featureName))].join(', ')}): ` +
              'remove it from them before you limit it to one project.',
          );
        }
      }
      await writeSegmentChange(tx, actor, before, values);
    });
  await checkAgainOnDuplicate(change, () => assertSegmentNameFree(ctx.db, input.name, id));
}

/** The first names of a list and how many more: a message names a few, not forty. */
function someOf(names: string[], shown = 5): string {
  if (names.length <= shown) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/** Deletes a segment no strategy uses (409 otherwise). */
export async function removeSegment(ctx: AppContext, identity: Identity, id: number) {
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    const segment = await getSegment(tx, id, { lock: 'exclusive' });
    const users = await strategiesUsingSegment(tx, id);
    if (users.length > 0) {
      throw new NameExistsError(
        `The segment "${segment.name}" is used by ${users.length} ${users.length === 1 ? 'strategy' : 'strategies'} ` +
          `(features ${someOf([...new Set(users.map((s) => s.featureName))])}): remove it from them first.`,
      );
    }
    await writeSegmentDeletion(tx, actor, segment);
  });
}

/**
 * Deletes a context field (with `project`, one of that project's); refused (409) while a strategy
 * or a segment has a constraint on it.
 */
export async function removeContextField(
  ctx: AppContext,
  identity: Identity,
  name: string,
  project?: string,
) {
  await ctx.db.transaction(async (tx) => {
    const field = await getContextField(tx, name, { lock: 'exclusive', project });
    const [features, segments] = [
      await featuresUsingContextField(tx, name),
      await segmentsUsingContext(tx, name),
    ];
    if (features.length > 0 || segments.length > 0) {
      const users = [
        features.length > 0 ? `the strategies of the features ${features.join(', ')}` : '',
        segments.length > 0 ? `the segments ${segments.join(', ')}` : '',
      ].filter(Boolean);
      throw new NameExistsError(
        `The context field "${name}" is used by constraints of ${users.join(' and ')}: remove those constraints first.`,
      );
    }
    await writeContextFieldDeletion(tx, actorOf(identity), field);
  });
}

/**
 * The strategies (of live and archived features; of one project, if given; of none `visible`
 * hides) with a constraint on the field.
 */
export function readContextFieldStrategies(
  model: FeatureModel,
  name: string,
  { project, visible }: { project?: string; visible: ProjectVisibility },
) {
  const strategies = [];
  for (const f of model.allFeatures()) {
    if ((project !== undefined && f.project !== project) || !visible.sees(f.project)) continue;
    for (const s of f.strategies) {
      if (!s.constraints.some((c) => c.contextName === name)) continue;
      strategies.push({
        id: s.id,
        featureName: f.name,
        projectId: f.project,
        environment: s.environment,
        strategyName: s.name,
      });
    }
  }
  // By feature; within one, in the order its strategies are evaluated (the sort is stable).
  strategies.sort((a, b) => (a.featureName < b.featureName ? -1 : a.featureName > b.featureName ? 1 : 0));
  return { strategies };
}

/** How many of the features using a strategy type a refusal names. */
const NAMED_USERS = 10;

/**
 * Deletes a custom strategy type. Unleash deletes it even while features use it and leaves their
 * strategies naming a type that no longer exists; here that is refused (409) until they are removed.
 */
export async function removeStrategyType(ctx: AppContext, identity: Identity, name: string) {
  await ctx.db.transaction(async (tx) => {
    const definition = await getDeletableStrategyType(tx, name);
    const features = await featuresUsingStrategyType(tx, name, NAMED_USERS + 1);
    if (features.length > 0) {
      const listed = features.slice(0, NAMED_USERS).join(', ');
      const more = features.length > NAMED_USERS ? ' and others' : '';
      throw new NameExistsError(
        `The strategy type "${name}" is used by strategies of the features ${listed}${more} (archived ones included): remove those strategies first, or deprecate the type instead.`,
      );
    }
    await writeStrategyTypeDeletion(tx, actorOf(identity), definition);
  });
}
