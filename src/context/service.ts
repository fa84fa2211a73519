import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { throwIfProblems } from '../http/check.js';
import { NameExistsError, NotFoundError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import type { ProjectVisibility } from '../http/visibility.js';
import { getProject } from '../projects/service.js';
import type { CreateContextFieldBody, UpdateContextFieldBody } from './schemas.js';
import {
  type ContextFieldScope,
  deleteContextField,
  deleteContextFieldsOfProject,
  findContextField,
  insertContextField,
  listContextFields,
  updateContextField,
} from './store.js';
import type { ContextField, LegalValue } from './types.js';

export function describeContextField(f: ContextField) {
  return {
    name: f.name,
    description: f.description,
    stickiness: f.stickiness,
    sortOrder: f.sortOrder,
    legalValues: f.legalValues,
    createdAt: f.createdAt,
    ...(f.project !== null ? { project: f.project } : {}),
  };
}

/**
 * The fields of the instance, of one project, or both (but those of projects hidden from the
 * caller); 404 for a project that does not exist.
 */
export async function readContextFields(
  db: Queryable,
  visible: ProjectVisibility,
  scope: ContextFieldScope = 'root',
) {
  if (typeof scope === 'object') await getProject(db, scope.project);
  return (await listContextFields(db, scope))
    .filter((f) => visible.sees(f.project))
    .map(describeContextField);
}

/**
 * The context field of that name, or 404 (also when it is of a project `visible` hides). With
 * `project`, it must be a field of that project: a project's paths never reach the instance's
 * fields or another project's (which is not named: it may be a private one the caller does not see).
 */
export async function getContextField(
  db: Queryable,
  name: string,
  options: ReadOptions & { project?: string; visible?: ProjectVisibility } = {},
): Promise<ContextField> {
  const field = await findContextField(db, name, options);
  if (!field || (options.visible && !options.visible.sees(field.project))) {
    throw new NotFoundError(`There is no context field named "${name}".`);
  }
  if (options.project !== undefined && field.project !== options.project) {
    throw new NotFoundError(
      field.project === null
        ? `The context field "${name}" is not one of the project "${options.project}": it belongs to the whole instance (see /api/admin/context/${name}).`
        : `The context field "${name}" is not one of the project "${options.project}": it belongs to another project.`,
    );
  }
  return field;
}

/** Legal values as stored: only `value` and, when sent, `description`; no value twice. */
function checkedLegalValues(
  legalValues: readonly LegalValue[] | undefined,
  path = 'legalValues',
): LegalValue[] {
  const list = legalValues ?? [];
  const seen = new Set<string>();
  throwIfProblems(
    list.flatMap((lv, i) => {
      const repeated = seen.has(lv.value);
      seen.add(lv.value);
      return repeated
        ? [{ path: `${path}.${i}.value`, message: `The legal value "${lv.value}" is listed twice.` }]
        : [];
    }),
  );
  return list.map((lv) => ({
    value: lv.value,
    ...(lv.description !== undefined ? { description: lv.description } : {}),
  }));
}

export interface NewContextField {
  name: string;
  description?: string | null;
  stickiness?: boolean;
  sortOrder?: number;
  legalValues?: LegalValue[];
  project?: string | null;
}

/** A new context field as the create endpoint would store it (400 for legal values listed twice). */
export function contextFieldValues(input: NewContextField, path = 'legalValues') {
  return {
    description: input.description || null,
    stickiness: input.stickiness ?? false,
    sortOrder: input.sortOrder ?? 10,
    legalValues: checkedLegalValues(input.legalValues, path),
    project: input.project ?? null,
  };
}

/** Creates context fields an import brings, which it found new, each with its `context-field-created`. */
export async function writeNewContextFields(tx: Transaction, actor: Actor, fields: NewContextField[]) {
  for (const input of fields) {
    const data = describeContextField(await insertContextField(tx, input.name, contextFieldValues(input)));
    recordEvent(tx, actor, { type: 'context-field-created', project: data.project ?? null, data });
  }
}

async function assertNameFree(db: Queryable, name: string): Promise<void> {
  if (await findContextField(db, name)) {
    throw new NameExistsError(`A context field named "${name}" already exists.`);
  }
}

/** 409 when the name is taken, for forms that check before they save. */
export async function validateContextName(db: Queryable, name: string): Promise<void> {
  await assertNameFree(db, name);
}

/**
 * Creates a context field: of the whole instance, or of one project when the path (or, on the
 * instance's path, the body) names one, which must exist.
 */
export async function createContextField(
  ctx: AppContext,
  identity: Identity,
  input: Static<typeof CreateContextFieldBody>,
  project: string | null = input.project ?? null,
) {
  const values = contextFieldValues({ ...input, project });
  const actor = actorOf(identity);
  const create = () =>
    ctx.db.transaction(async (tx) => {
      // Shared: the project stays until the field is in (deleting it takes its fields along).
      if (project !== null) await getProject(tx, project, { lock: 'share' });
      await assertNameFree(tx, input.name);
      const field = await insertContextField(tx, input.name, values);
      const data = describeContextField(field);
      recordEvent(tx, actor, { type: 'context-field-created', project, data });
      return data;
    });
  return checkAgainOnDuplicate(create, () => assertNameFree(ctx.db, input.name));
}

async function saveChange(
  tx: Transaction,
  identity: Identity,
  before: ContextField,
  change: (before: ContextField) => Omit<ContextField, 'name' | 'createdAt' | 'project'>,
): Promise<void> {
  const after = await updateContextField(tx, before.name, change(before));
  recordEvent(tx, actorOf(identity), {
    type: 'context-field-updated',
    project: before.project,
    data: describeContextField(after),
    preData: describeContextField(before),
  });
}

/**
 * E15: the settings are replaced. Legal values become the list sent (none when omitted) and
 * stickiness the value sent (false when omitted); the description and the sort order are kept
 * when omitted.
 */
export async function replaceContextField(
  ctx: AppContext,
  identity: Identity,
  name: string,
  input: Static<typeof UpdateContextFieldBody>,
  project?: string,
) {
  const legalValues = checkedLegalValues(input.legalValues);
  await ctx.db.transaction(async (tx) => {
    const before = await getContextField(tx, name, { lock: 'update', project });
    await saveChange(tx, identity, before, (b) => ({
      description: input.description === undefined ? b.description : input.description || null,
      stickiness: input.stickiness ?? false,
      sortOrder: input.sortOrder ?? b.sortOrder,
      legalValues,
    }));
  });
}

/** Adds a legal value, or changes the description of one already there. */
export async function putLegalValue(
  ctx: AppContext,
  identity: Identity,
  name: string,
  value: LegalValue,
  project?: string,
) {
  const legal = checkedLegalValues([value])[0]!;
  await ctx.db.transaction(async (tx) => {
    const before = await getContextField(tx, name, { lock: 'update', project });
    const known = before.legalValues.some((lv) => lv.value === legal.value);
    const legalValues = known
      ? before.legalValues.map((lv) => (lv.value === legal.value ? legal : lv))
      : [...before.legalValues, legal];
    await saveChange(tx, identity, before, (b) => ({ ...b, legalValues }));
  });
}

export async function removeLegalValue(
  ctx: AppContext,
  identity: Identity,
  name: string,
  value: string,
  project?: string,
) {
  await ctx.db.transaction(async (tx) => {
    const before = await getContextField(tx, name, { lock: 'update', project });
    if (!before.legalValues.some((lv) => lv.value === value)) {
      throw new NotFoundError(`The context field "${name}" has no legal value "${value}".`);
    }
    const legalValues = before.legalValues.filter((lv) => lv.value !== value);
    await saveChange(tx, identity, before, (b) => ({ ...b, legalValues }));
  });
}

/** Deletes a context field with its `context-field-deleted` event; `field` was read locked. */
export async function writeContextFieldDeletion(tx: Transaction, actor: Actor, field: ContextField) {
  await deleteContextField(tx, field.name);
  recordEvent(tx, actor, {
    type: 'context-field-deleted',
    project: field.project,
    preData: describeContextField(field),
  });
}

/** Part of deleting a project: its context fields go with it, each with its `context-field-deleted`. */
export async function deleteProjectContextFields(tx: Transaction, actor: Actor, project: string) {
  for (const field of await deleteContextFieldsOfProject(tx, project)) {
    recordEvent(tx, actor, { type: 'context-field-deleted', project, preData: describeContextField(field) });
  }
}
