import type { AppContext } from '../../app-context.js';
import type { Queryable, Transaction } from '../../db/database.js';
import { recordEvent } from '../../events/service.js';
import { ConflictError, NameExistsError, ValidationError } from '../../http/errors.js';
import { type Actor, actorOf, type Identity } from '../../http/identity.js';
import { assertPermission } from '../../http/permissions.js';
import { metadataPatch } from '../../read-model/patches.js';
import { markPatched } from '../../sync/changes.js';
import { assertNoChildrenLeftBehind, writeDependencyRemovals } from '../dependencies/service.js';
import {
  applyFeaturePatch,
  assertNoVariantPaths,
  FailedTestError,
  type PatchedMetadata,
  type PatchOperation,
} from './patch.js';
import {
  describeFeature,
  getLiveFeature,
  getModelFeature,
  lockedFeature,
  namedFeaturesOfProject,
  unlessItChanges,
} from './service.js';
import { type Feature, findFeature, setFeaturesStale, updateFeatureMetadata } from './store.js';
import { archiveFeatures } from './writes.js';

function sameMetadata(f: Feature, m: PatchedMetadata): boolean {
  return (
    f.description === m.description &&
    f.type === m.type &&
    f.stale === m.stale &&
    f.impressionData === m.impressionData
  );
}

/**
 * Writes new metadata with its events: `feature-metadata-updated` (with the feature before as
 * preData) and `feature-stale-on`/`-off` when `stale` flipped; then `feature-archived` when the
 * new metadata archives the feature, which takes the permission to archive. What did not change
 * is neither written nor recorded.
 */
async function writeMetadata(
  tx: Transaction,
  identity: Identity,
  feature: Feature,
  next: PatchedMetadata,
): Promise<Feature> {
  const actor: Actor = actorOf(identity);
  const where = { project: feature.project, featureName: feature.name };
  let updated = feature;
  if (!sameMetadata(feature, next)) {
    updated = await updateFeatureMetadata(tx, feature.name, next);
    markPatched(tx, feature.name, metadataPatch(updated));
    recordEvent(tx, actor, {
      type: 'feature-metadata-updated',
      ...where,
      data: describeFeature(updated),
      preData: describeFeature(feature),
    });
    if (updated.stale !== feature.stale) {
      recordEvent(tx, actor, {
        type: updated.stale ? 'feature-stale-on' : 'feature-stale-off',
        ...where,
        data: { stale: updated.stale },
      });
    }
  }
  if (next.archived) {
    assertPermission(identity, 'DELETE_FEATURE', { project: feature.project });
    await assertNoChildrenLeftBehind(tx, [feature.name]);
    await writeDependencyRemovals(tx, actor, [feature]);
    [updated] = (await archiveFeatures(tx, [feature.name])) as [Feature];
    recordEvent(tx, actor, { type: 'feature-archived', ...where, data: describeFeature(updated) });
  }
  return updated;
}

export interface FeatureUpdateInput {
  name?: string;
  description?: string | null;
  type?: string;
  stale?: boolean;
  impressionData?: boolean;
  archived?: boolean;
}

function changesSomething(feature: Feature, next: PatchedMetadata): boolean {
  return next.archived || !sameMetadata(feature, next);
}

/**
 * A read-modify-write of a feature's metadata. The request is first worked out against the row as
 * it is: one that changes nothing (or is refused) answers from there, with no lock and no write —
 * as if it ran at that moment. Otherwise it runs again on the row locked for update, so concurrent
 * updates happen one after the other and none is lost. `conflict` turns a refusal that only the
 * locked row causes (a JSON Patch `test` that passed a moment before) into a 409.
 */
async function changeMetadata(
  ctx: AppContext,
  identity: Identity,
  project: string,
  name: string,
  next: (feature: Feature, conflict: boolean) => PatchedMetadata,
) {
  const current = await unlessItChanges(
    ctx,
    (model) => getModelFeature(model, project, name),
    (db) => getLiveFeature(db, project, name),
    (feature) => changesSomething(feature, next(feature, false)),
  );
  if (current) return describeFeature(current);
  return ctx.db.transaction(async (tx) => {
    const feature = await lockedFeature(ctx, tx, project, name);
    return describeFeature(await writeMetadata(tx, identity, feature, next(feature, true)));
  });
}

/**
 * PUT: the metadata becomes what was sent. As in Unleash, an omitted `description` is kept while
 * omitted `type`, `stale` and `impressionData` take their defaults; the name never changes.
 */
export async function updateFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  name: string,
  input: FeatureUpdateInput,
) {
  if (input.name !== undefined && input.name !== name) {
    throw new ValidationError(
      `A feature cannot be renamed: the body names "${input.name}" but the path "${name}". ` +
        'Leave `name` out or send the current name.',
      [{ path: 'name', message: 'The name of a feature cannot change.' }],
    );
  }
  return changeMetadata(ctx, identity, project, name, (feature) => ({
    description: input.description === undefined ? feature.description : input.description || null,
    type: input.type ?? 'release',
    stale: input.stale ?? false,
    impressionData: input.impressionData ?? false,
    archived: input.archived ?? false,
  }));
}

/**
 * E16: JSON Patch on the feature's metadata. Operations on the name, the project and other
 * read-only members are applied to the document and then ignored. A `test` that fails against the
 * feature as the request found it is a 400 (the spec's answer); one that passed then but fails
 * once the row is locked lost a race with a concurrent change: 409.
 */
export async function patchFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  name: string,
  operations: PatchOperation[],
) {
  assertNoVariantPaths(operations);
  return changeMetadata(ctx, identity, project, name, (feature, conflict) => {
    const d = describeFeature(feature);
    const document = {
      ...d,
      archivedAt: d.archivedAt?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
      lastSeenAt: d.lastSeenAt?.toISOString() ?? null,
    };
    try {
      return applyFeaturePatch(document, operations);
    } catch (error) {
      if (conflict && error instanceof FailedTestError) {
        throw new ConflictError(
          `The feature "${name}" was changed by another request while this patch ran, and its \`test\` no longer holds: read it again and retry.`,
        );
      }
      throw error;
    }
  });
}

/** Marks the named features of the project stale (or not): one event per feature that changed. */
export async function setStale(
  ctx: AppContext,
  identity: Identity,
  project: string,
  names: string[],
  stale: boolean,
): Promise<void> {
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    const features = await namedFeaturesOfProject(tx, project, names);
    const changed = await setFeaturesStale(
      tx,
      features.filter((f) => f.archivedAt === null).map((f) => f.name),
      stale,
    );
    for (const f of changed) {
      recordEvent(tx, actor, {
        type: stale ? 'feature-stale-on' : 'feature-stale-off',
        project,
        featureName: f.name,
        data: { stale },
      });
    }
  });
}

/** 409 when the name is taken by any feature, archived ones included. */
export async function assertFeatureNameFree(db: Queryable, name: string): Promise<void> {
  const existing = await findFeature(db, name);
  if (existing) {
    throw new NameExistsError(
      existing.archivedAt
        ? `An archived feature named "${name}" exists: revive it, or delete it from the archive first.`
        : `A feature named "${name}" already exists (in the project "${existing.project}").`,
    );
  }
}
