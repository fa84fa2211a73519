import type { Static } from '@sinclair/typebox';
import jsonPatch from 'fast-json-patch';
import type { AppContext } from '../../app-context.js';
import type { Queryable, Transaction } from '../../db/database.js';
import type { ReadOptions } from '../../db/lock.js';
import { recordEvent } from '../../events/service.js';
import { compileCheck, throwIfProblems } from '../../http/check.js';
import { ValidationError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { assertPermission } from '../../http/permissions.js';
import type { FeatureModel } from '../../read-model/model.js';
import { getLiveFeature, getModelFeature } from '../core/service.js';
import { findEnvironmentVariants } from '../environments/queries.js';
import { type FeatureEnvironmentPath, noSuchEnvironment } from '../environments/service.js';
import { setEnvironmentVariants } from '../environments/writes.js';
import { prepareVariants, type Variant } from './rules.js';
import { VariantList, type VariantPatch } from './schemas.js';

async function variantsAt(
  db: Queryable,
  at: FeatureEnvironmentPath,
  options?: ReadOptions,
): Promise<Variant[]> {
  const variants = await findEnvironmentVariants(db, at.featureName, at.environment, options);
  if (variants === null) throw noSuchEnvironment(at);
  return variants;
}

/** E18 (from memory): also for archived features, whose variants are kept for when they are revived. */
export function readVariants(model: FeatureModel, at: FeatureEnvironmentPath) {
  const feature = getModelFeature(model, at.project, at.featureName, { includeArchived: true });
  const state = feature.environments.find((e) => e.name === at.environment);
  if (!state) throw noSuchEnvironment(at);
  return { version: 1 as const, variants: state.variants as Variant[] };
}

/** Sets the environment's list with its `feature-environment-variants-updated` event. */
async function writeVariants(
  tx: Transaction,
  identity: Identity,
  at: FeatureEnvironmentPath,
  before: Variant[],
  variants: Variant[],
): Promise<void> {
  await setEnvironmentVariants(tx, at.featureName, at.environment, variants);
  recordEvent(tx, actorOf(identity), {
    type: 'feature-environment-variants-updated',
    project: at.project,
    featureName: at.featureName,
    environment: at.environment,
    data: { variants },
    preData: { variants: before },
  });
}

async function store(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  next: (current: Variant[]) => Variant[],
) {
  return ctx.db.transaction(async (tx) => {
    // The feature locked too: an archive waits for this change, or this one sees it archived.
    await getLiveFeature(tx, at.project, at.featureName, { lock: 'update' });
    const before = await variantsAt(tx, at, { lock: 'update' });
    const variants = next(before);
    await writeVariants(tx, identity, at, before, variants);
    return { version: 1 as const, variants };
  });
}

/**
 * PUT variants-batch: one list (weights fixed as E18 shows them) for several environments of a
 * live feature, in one transaction, with an event per environment. Each environment takes the
 * permission to change variants there.
 */
export async function replaceVariantsInEnvironments(
  ctx: AppContext,
  identity: Identity,
  project: string,
  featureName: string,
  input: { variants: Static<typeof VariantList>; environments: string[] },
) {
  const environments = [...new Set(input.environments)];
  for (const environment of environments) {
    assertPermission(identity, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { project, environment });
  }
  const variants = prepareVariants(input.variants, 'variants');
  return ctx.db.transaction(async (tx) => {
    await getLiveFeature(tx, project, featureName, { lock: 'update' });
    for (const environment of environments) {
      const at = { project, featureName, environment };
      await writeVariants(tx, identity, at, await variantsAt(tx, at, { lock: 'update' }), variants);
    }
    return { version: 1 as const, variants };
  });
}

/** Replaces the list; an empty list clears it. */
export function replaceVariants(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  input: Static<typeof VariantList>,
) {
  const variants = prepareVariants(input, 'variants');
  return store(ctx, identity, at, () => variants);
}

const listCheck = compileCheck(VariantList);

/** JSON Patch on the stored list; the result must be a valid list, and its weights are fixed again. */
export function patchVariants(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  patch: Static<typeof VariantPatch>,
) {
  return store(ctx, identity, at, (current) => {
    let patched: unknown;
    try {
      patched = jsonPatch.applyPatch(
        structuredClone(current),
        patch as jsonPatch.Operation[],
        true,
        false,
      ).newDocument;
    } catch (error) {
      throw new ValidationError(
        `The patch cannot be applied to the variant list: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    throwIfProblems(listCheck.problems(patched, 'variants'));
    return prepareVariants(patched as Static<typeof VariantList>, 'variants');
  });
}
