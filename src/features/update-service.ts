import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, ValidationError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import { assertPermission } from '../http/permissions.js';
import {
  applyFeaturePatch,
  assertNoVariantPaths,
  type PatchedMetadata,
  type PatchOperation,
} from './patch.js';
import { describeFeature, getLiveFeature, namedFeaturesOfProject } from './service.js';
import {
  archiveFeatures,
  type Feature,
  findFeature,
  setFeaturesStale,
  updateFeatureMetadata,
} from './store.js';

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
    await recordEvent(tx, actor, {
      type: 'feature-metadata-updated',
      ...where,
      data: describeFeature(updated),
      preData: describeFeature(feature),
    });
    if (updated.stale !== feature.stale) {
      await recordEvent(tx, actor, {
        type: updated.stale ? 'feature-stale-on' : 'feature-stale-off',
        ...where,
        data: { stale: updated.stale },
      });
    }
  }
  if (next.archived) {
    assertPermission(identity, 'DELETE_FEATURE', { project: feature.project });
    [updated] = (await archiveFeatures(tx, [feature.name])) as [Feature];
    await recordEvent(tx, actor, { type: 'feature-archived', ...where, data: describeFeature(updated) });
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
  return ctx.db.transaction(async (tx) => {
    const feature = await getLiveFeature(tx, project, name);
    if (input.name !== undefined && input.name !== name) {
      throw new ValidationError(
        `A feature cannot be renamed: the body names "${input.name}" but the path "${name}". ` +
          'Leave `name` out or send the current name.',
        [{ path: 'name', message: 'The name of a feature cannot change.' }],
      );
    }
    const next: PatchedMetadata = {
      description: input.description === undefined ? feature.description : input.description || null,
      type: input.type ?? 'release',
      stale: input.stale ?? false,
      impressionData: input.impressionData ?? false,
      archived: input.archived ?? false,
    };
    return describeFeature(await writeMetadata(tx, identity, feature, next));
  });
}

/**
 * E16: JSON Patch on the feature's metadata. Operations on the name, the project and other
 * read-only members are applied to the document and then ignored.
 */
export async function patchFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  name: string,
  operations: PatchOperation[],
) {
  return ctx.db.transaction(async (tx) => {
    const feature = await getLiveFeature(tx, project, name);
    assertNoVariantPaths(operations);
    const d = describeFeature(feature);
    const next = applyFeaturePatch(
      {
        ...d,
        archivedAt: d.archivedAt?.toISOString() ?? null,
        createdAt: d.createdAt.toISOString(),
        lastSeenAt: d.lastSeenAt?.toISOString() ?? null,
      },
      operations,
    );
    return describeFeature(await writeMetadata(tx, identity, feature, next));
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
      await recordEvent(tx, actor, {
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
