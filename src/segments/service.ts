import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { ContextFields } from '../constraints/rules.js';
import { checkConstraints } from '../constraints/service.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NotFoundError, ValidationError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import type { ProjectVisibility } from '../http/visibility.js';
import { getProject } from '../projects/service.js';
import type { SegmentBody } from './schemas.js';
import {
  deleteAllSegments,
  deleteSegment,
  findSegment,
  findSegmentByName,
  findSegments,
  insertSegment,
  listSegments,
  type SegmentRow,
  type SegmentValues,
  segmentsUsingContextField,
  updateSegment,
  upsertSegments,
} from './store.js';
import type { Segment } from './types.js';

export type { SegmentRow } from './store.js';

export function describeSegment(s: Segment) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    project: s.project,
    constraints: s.constraints,
    createdBy: s.createdBy,
    createdAt: s.createdAt,
  };
}

/** Every segment but those of projects hidden from the caller. */
export async function readSegments(db: Queryable, visible: ProjectVisibility) {
  return { segments: (await listSegments(db)).filter((s) => visible.sees(s.project)).map(describeSegment) };
}

export async function getSegment(db: Queryable, id: number, options?: ReadOptions): Promise<Segment> {
  const segment = await findSegment(db, id, options);
  if (!segment) throw new NotFoundError(`There is no segment with the id ${id}.`);
  return segment;
}

/** The segment, or 404 when there is none or it is of a project hidden from the caller. */
export async function getVisibleSegment(
  db: Queryable,
  id: number,
  visible: ProjectVisibility,
): Promise<Segment> {
  const segment = await getSegment(db, id);
  if (!visible.sees(segment.project)) throw new NotFoundError(`There is no segment with the id ${id}.`);
  return segment;
}

export type SegmentInput = Static<typeof SegmentBody>;

/** The body's rules (400): constraints, and a project that exists. */
export async function checkedSegmentValues(
  db: Queryable,
  fields: ContextFields,
  input: SegmentInput,
): Promise<SegmentValues> {
  const constraints = checkConstraints(fields, input.constraints);
  const project = input.project ?? null;
  if (project !== null) {
    try {
      await getProject(db, project);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new ValidationError(`There is no project with the id "${project}" to hold the segment.`, [
        { path: 'project', message: 'Unknown project.' },
      ]);
    }
  }
  return { name: input.name, description: input.description || null, project, constraints };
}

/** 409 when another segment than `exceptId` has the name. */
export async function assertSegmentNameFree(db: Queryable, name: string, exceptId?: number): Promise<void> {
  const taken = await findSegmentByName(db, name);
  if (taken && taken.id !== exceptId) {
    throw new NameExistsError(
      `A segment named "${name}" already exists (id ${taken.id}): choose another name.`,
    );
  }
}

/** 409 when the name is taken, for forms that check before they save. */
export async function validateSegmentName(db: Queryable, name: string): Promise<void> {
  await assertSegmentNameFree(db, name);
}

export async function createSegment(ctx: AppContext, identity: Identity, input: SegmentInput) {
  const actor = actorOf(identity);
  const create = () =>
    ctx.db.transaction(async (tx) => {
      const values = await checkedSegmentValues(tx, ctx.model.contextRules(input.project ?? null), input);
      await assertSegmentNameFree(tx, values.name);
      const data = describeSegment(await insertSegment(tx, values, actor.name));
      recordEvent(tx, actor, { type: 'segment-created', project: data.project, data });
      return data;
    });
  return checkAgainOnDuplicate(create, () => assertSegmentNameFree(ctx.db, input.name));
}

/** Whether a strategy of the project may use the segment: a global one, or one of that project. */
export function segmentUsableIn(segment: { project: string | null }, project: string): boolean {
  return segment.project === null || segment.project === project;
}

/** Segment ids as a strategy keeps them: without duplicates, ascending. */
export function distinctSegmentIds(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * The segment ids a strategy of `project` may use: each must exist and be global or of that
 * project (`project` empty: global only). Returns them without duplicates, in ascending order. In a transaction the segments
 * stay as checked until it ends: none can be deleted or moved to another project meanwhile.
 */
export async function checkStrategySegments(
  db: Queryable,
  ids: readonly number[],
  project: string,
): Promise<number[]> {
  const unique = distinctSegmentIds(ids);
  const found = new Map((await findSegments(db, unique, { lock: 'share' })).map((s) => [s.id, s]));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new ValidationError(`There is no segment with the id ${missing.join(', ')}.`, [
      { path: 'segments', message: `Unknown segment ids: ${missing.join(', ')}.` },
    ]);
  }
  const foreign = [...found.values()].filter((s) => !segmentUsableIn(s, project));
  if (foreign.length > 0) {
    const names = foreign.map((s) => `"${s.name}"`).join(', ');
    throw new ValidationError(
      project
        ? `The segment ${names} belongs to another project than "${project}".`
        : `The segment ${names} belongs to a project: only segments of no project can be used here.`,
      [{ path: 'segments', message: 'Segments of another project cannot be used here.' }],
    );
  }
  return unique;
}

/** Names of the segments whose constraints use the context field. */
export async function segmentsUsingContext(db: Queryable, contextName: string): Promise<string[]> {
  return (await segmentsUsingContextField(db, contextName)).map((s) => s.name);
}

/** Writes a segment's new values with their `segment-updated` event; `before` was read locked. */
export async function writeSegmentChange(
  tx: Transaction,
  actor: Actor,
  before: Segment,
  values: SegmentValues,
): Promise<void> {
  const data = describeSegment(await updateSegment(tx, before.id, values));
  recordEvent(tx, actor, {
    type: 'segment-updated',
    project: data.project,
    data,
    preData: describeSegment(before),
  });
}

/** Deletes a segment with its `segment-deleted` event; `segment` was read locked. */
export async function writeSegmentDeletion(tx: Transaction, actor: Actor, segment: Segment): Promise<void> {
  await deleteSegment(tx, segment.id);
  recordEvent(tx, actor, {
    type: 'segment-deleted',
    project: segment.project,
    preData: describeSegment(segment),
  });
}

/** Creates or overwrites segments with the ids an import gives them. */
export function writeSegments(tx: Transaction, rows: SegmentRow[]): Promise<void> {
  return upsertSegments(tx, rows);
}

/** Deletes every segment (an import that replaces everything, once no strategy uses them). */
export function dropAllSegments(tx: Transaction): Promise<string[]> {
  return deleteAllSegments(tx);
}
