import type { Queryable, Transaction } from '../../db/database.js';
import type { ReadOptions } from '../../db/lock.js';
import { withoutRowTriggers } from '../../db/row-triggers.js';
import type { Actor } from '../../http/identity.js';
import { getProject, linkProjectEnvironment } from '../../projects/service.js';
import { newFeatureRecord } from '../../read-model/patches.js';
import { type FeatureRecord, loadFeatureRecords } from '../../read-model/queries.js';
import { markChanged, markWrittenWhole } from '../../sync/changes.js';
import { type Feature, findFeatures } from '../core/queries.js';
import {
  deleteAllFeatures,
  type FeatureRow,
  upsertFeatureRows,
  type WrittenFeatureRow,
} from '../core/writes.js';
import { type DependencyRow, dependenciesOf, dependenciesOn } from '../dependencies/queries.js';
import { deleteDependenciesOf, setDependencies } from '../dependencies/writes.js';
import {
  attachProjectFeatures,
  type FeatureEnvironmentRow,
  upsertFeatureEnvironmentRows,
} from '../environments/writes.js';
import { settleImportedLifecycles } from '../lifecycle/writes.js';
import { findStrategyPlaces } from '../strategies/queries.js';
import {
  deleteStrategiesIn,
  replaceStrategySegmentRows,
  type StrategyRow,
  upsertStrategyRows,
} from '../strategies/writes.js';
import { deleteTagsOfFeatures, type FeatureTagRow, insertFeatureTagRows } from '../tags/writes.js';
import { missingReference, type References } from './store.js';

// Imports write many features at once. Their rules (and audit events) are the importer's; what is
// here only hands what it was given to the rooms that own the tables (each writes its table in one
// statement per chunk), in the order the foreign keys need. Segments, tags and tag types, projects
// and environments must exist first.

export type { FeatureRow } from '../core/writes.js';
export type { DependencyRow } from '../dependencies/queries.js';
export type { FeatureEnvironmentRow } from '../environments/writes.js';
export type { StrategyPlace } from '../strategies/queries.js';
export type { StrategyRow } from '../strategies/writes.js';
export type { FeatureTagRow } from '../tags/writes.js';

export interface FeatureWrites {
  /** Created, or overwritten where they exist. */
  features: FeatureRow[];
  /** Attached with this state, or set where attached. */
  environments: FeatureEnvironmentRow[];
  /** Inserted, or overwritten where they exist. */
  strategies: StrategyRow[];
  /** Strategy id → the segments it uses from now on. */
  strategySegments: Map<string, number[]>;
  /** Added; a tag a feature carries already is left alone. */
  tags: FeatureTagRow[];
  /** Children whose dependencies go. */
  clearedDependencies?: string[];
  /** Children's new parents, each replacing the one it had. */
  dependencies?: DependencyRow[];
  /**
   * Of `features`, those that did not exist before: what is written here is all of them, so this
   * process's caches take them as written instead of reading them back.
   */
  created?: ReadonlySet<string>;
}

export async function writeFeatures(tx: Transaction, writes: FeatureWrites, actor: Actor): Promise<void> {
  // Nothing below deletes a row that another refers to: the foreign keys are checked once, after.
  const written = await withoutRowTriggers(tx, async () => {
    const features = await upsertFeatureRows(tx, writes.features, actor.userId);
    await settleImportedLifecycles(
      tx,
      features.map((f) => f.name),
      features.filter((f) => !f.created).map((f) => f.name),
    );
    await upsertFeatureEnvironmentRows(tx, writes.environments);
    await upsertStrategyRows(tx, writes.strategies);
    await replaceStrategySegmentRows(tx, writes.strategySegments);
    await insertFeatureTagRows(tx, writes.tags, actor.userId);
    await deleteDependenciesOf(tx, writes.clearedDependencies ?? []);
    await setDependencies(tx, writes.dependencies ?? []);
    return features;
  });
  await refuseDanglingReferences(tx, writes);
  handCreatedToCaches(tx, writes, written, actor);
}

/**
 * The new features, whole, to this process's caches (1,000 of them read back took a fifth of an
 * import). Only on the embedded database: a reload orders a feature's tags and strategies made
 * in one transaction by their text, in the database's collation, which is known only there (C).
 */
function handCreatedToCaches(
  tx: Transaction,
  writes: FeatureWrites,
  written: readonly WrittenFeatureRow[],
  actor: Actor,
): void {
  const created = writes.created;
  if (!created || created.size === 0 || tx.database.kind !== 'embedded') return;
  const parts = new Map(
    writes.features
      .filter((f) => created.has(f.name))
      .map((f) => [
        f.name,
        {
          environments: [] as FeatureEnvironmentRow[],
          strategies: [] as StrategyRow[],
          tags: [] as FeatureTagRow[],
        },
      ]),
  );
  for (const e of writes.environments) parts.get(e.featureName)?.environments.push(e);
  for (const s of writes.strategies) parts.get(s.featureName)?.strategies.push(s);
  for (const t of writes.tags) parts.get(t.featureName)?.tags.push(t);
  for (const d of writes.dependencies ?? []) parts.delete(d.child);
  const rows = new Map(writes.features.map((f) => [f.name, f]));
  for (const stored of written) {
    const part = parts.get(stored.name);
    const row = rows.get(stored.name);
    if (!part || !row) continue;
    const record = newFeatureRecord({
      feature: row,
      createdAt: stored.createdAt,
      archivedAt: stored.archivedAt,
      writtenAt: stored.writtenAt,
      createdByUserId: actor.userId,
      environments: part.environments,
      strategies: part.strategies.map((s) => ({ ...s, segments: writes.strategySegments.get(s.id) ?? [] })),
      tags: part.tags,
    });
    markWrittenWhole(tx, stored.name, record);
  }
}

/**
 * The foreign keys of what `writeFeatures` wrote, checked on what it was given: its rows are those
 * (an upsert's update leaves the keys of the row it meets as they were). The importer's plan
 * checked every reference before; one missed there is a fault of the server (500), and the whole
 * import is undone.
 */
async function refuseDanglingReferences(tx: Transaction, writes: FeatureWrites): Promise<void> {
  const written = new Set(writes.features.map((f) => f.name));
  const strategiesWritten = new Set(writes.strategies.map((s) => s.id));
  const distinct = <T>(values: T[]) => [...new Set(values)];
  const references: References = {
    projects: distinct(writes.features.map((f) => f.project)),
    environments: distinct([...writes.environments, ...writes.strategies].map((e) => e.environment)),
    strategyTypes: distinct(writes.strategies.map((s) => s.name)),
    segments: distinct([...writes.strategySegments.values()].flat()),
    tags: [...new Map(writes.tags.map((t) => [`${t.type}\u0000${t.value}`, t])).values()],
    features: distinct([
      ...[...writes.environments, ...writes.strategies, ...writes.tags].map((r) => r.featureName),
      ...(writes.dependencies ?? []).flatMap((d) => [d.child, d.feature]),
    ]).filter((name) => !written.has(name)),
    strategies: [...writes.strategySegments.keys()].filter((id) => !strategiesWritten.has(id)),
  };
  const missing = await missingReference(tx, references);
  if (missing) throw new Error(`An import refers to what is not there: ${missing}`);
}

/**
 * What the dependencies an import brings meet: the features named as parents (with the parents
 * they have) and the dependencies on the imported features (their children).
 */
export async function dependencyNeighbours(db: Queryable, parents: string[], imported: string[]) {
  const features: Feature[] = await findFeatures(db, parents);
  return {
    parents: new Map(features.map((f) => [f.name, f])),
    parentsWithParents: new Set((await dependenciesOf(db, parents)).map((d) => d.child)),
    children: await dependenciesOn(db, imported),
  };
}

/**
 * The features of those names that exist, archived or not, with their environments, strategies
 * and tags. With a lock, their rows are locked first (by name, so two imports cannot deadlock).
 */
export async function featureStates(
  db: Queryable,
  names: string[],
  { lock }: ReadOptions = {},
): Promise<FeatureRecord[]> {
  if (names.length === 0) return [];
  if (!lock) return loadFeatureRecords(db, names);
  // Only those that exist are read whole: an import of new features reads nothing more.
  const found = (await findFeatures(db, names, { lock })).map((f) => f.name);
  return found.length === 0 ? [] : loadFeatureRecords(db, found);
}

/** Every feature with everything hanging off it (for an export). */
export function allFeatureStates(db: Queryable): Promise<FeatureRecord[]> {
  return loadFeatureRecords(db, null);
}

/** Where the strategies of those ids live (ids of no strategy are left out). */
export function strategyPlaces(db: Queryable, ids: string[]) {
  return findStrategyPlaces(db, ids);
}

/**
 * Links environments to projects; each project's features get the environment, disabled, as when
 * an environment is added to a project by hand (and, as there, with the project locked, so that a
 * feature being created in it meanwhile gets the environment too). The caches reload the projects
 * and the features attached, which no audit event of the import names. A project this transaction
 * `created` has no feature to attach: no other transaction can see it yet (looking cost a scan of
 * every feature, archived ones too).
 */
export async function linkEnvironmentsToProjects(
  tx: Transaction,
  links: readonly { project: string; environment: string }[],
  created: ReadonlySet<string>,
): Promise<void> {
  for (const { project, environment } of links) {
    await getProject(tx, project, { lock: 'exclusive' });
    if (!(await linkProjectEnvironment(tx, project, environment))) continue;
    const attached = created.has(project) ? [] : await attachProjectFeatures(tx, project, environment);
    markChanged(tx, {
      scopes: attached.length > 0 ? ['catalog', 'features'] : ['catalog'],
      features: attached,
    });
  }
}

/** Deletes every feature for good (an import that replaces everything); answers their names. */
export function dropAllFeatures(tx: Transaction): Promise<string[]> {
  return deleteAllFeatures(tx);
}

/** Removes the strategies of those features in the environment; answers which. */
export function removeStrategiesIn(tx: Transaction, names: string[], environment: string) {
  return deleteStrategiesIn(tx, names, environment);
}

/** Removes every tag of those features. */
export function untagFeatures(tx: Transaction, names: string[]): Promise<void> {
  return deleteTagsOfFeatures(tx, names);
}
