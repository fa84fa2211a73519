import type { AppContext } from '../app-context.js';
import { getContextField, writeContextFieldDeletion } from '../context/service.js';
import type { Queryable } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import { NameExistsError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import {
  assertSegmentNameFree,
  checkedSegmentValues,
  getSegment,
  type SegmentInput,
  segmentsUsingContext,
  writeSegmentChange,
  writeSegmentDeletion,
} from '../segments/service.js';
import type { FeatureModel } from './model.js';
import { featuresUsingContextField, strategiesUsingSegment } from './usage-store.js';

// The changes of segments and context fields that depend on the strategies using them. They run
// here, above segments/ and context/, which know nothing of strategies.

/** The strategies (of live and archived features) that use the segment; 404 for an unknown segment. */
export async function readSegmentStrategies(db: Queryable, id: number) {
  await getSegment(db, id);
  return { strategies: await strategiesUsingSegment(db, id), changeRequestStrategies: [] };
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

/** Deletes a segment no strategy uses (409 otherwise). */
export async function removeSegment(ctx: AppContext, identity: Identity, id: number) {
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    const segment = await getSegment(tx, id, { lock: 'exclusive' });
    const users = await strategiesUsingSegment(tx, id);
    if (users.length > 0) {
      throw new NameExistsError(
        `The segment "${segment.name}" is used by ${users.length} ${users.length === 1 ? 'strategy' : 'strategies'} ` +
          `(features ${[...new Set(users.map((s) => s.featureName))].join(', ')}): remove it from them first.`,
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

/** The strategies (of live and archived features; of one project, if given) with a constraint on the field. */
export function readContextFieldStrategies(model: FeatureModel, name: string, project?: string) {
  const strategies = [];
  for (const f of model.allFeatures()) {
    if (project !== undefined && f.project !== project) continue;
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
