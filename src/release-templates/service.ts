import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { checkMilestones } from './milestones.js';
import type { TemplateBody } from './schemas.js';
import {
  archiveTemplate,
  deleteTemplate,
  findTemplate,
  insertTemplate,
  listLiveTemplates,
  liveNameTaken,
  type Template,
  updateTemplate,
} from './store.js';
import { ulid } from './ulid.js';

type Input = Static<typeof TemplateBody>;

export type { Template } from './store.js';

/** A template as Unleash answers it; each milestone and strategy names what it belongs to. */
export function describeTemplate(t: Template) {
  return {
    id: t.id,
    discriminator: 'template' as const,
    name: t.name,
    description: t.description,
    project: null,
    createdByUserId: t.createdByUserId,
    createdAt: t.createdAt.toISOString(),
    archivedAt: t.archivedAt?.toISOString() ?? null,
    milestones: t.milestones.map((m) => ({
      id: m.id,
      name: m.name,
      sortOrder: m.sortOrder,
      releasePlanDefinitionId: t.id,
      strategies: m.strategies.map((s) => ({ ...s, milestoneId: m.id, strategyName: s.name })),
    })),
  };
}

async function assertNameFree(db: Queryable, name: string, except?: string): Promise<void> {
  if (await liveNameTaken(db, name, except)) {
    throw new NameExistsError(`A release template named "${name}" already exists.`);
  }
}

export async function getTemplate(db: Queryable, id: string, lock?: 'update'): Promise<Template> {
  const template = await findTemplate(db, id, { lock });
  if (!template) throw new NotFoundError(`No release template has the id "${id}".`);
  return template;
}

export async function readTemplates(ctx: AppContext) {
  return (await listLiveTemplates(ctx.db)).map(describeTemplate);
}

export async function readTemplate(ctx: AppContext, id: string) {
  return describeTemplate(await getTemplate(ctx.db, id));
}

export async function createTemplate(ctx: AppContext, identity: Identity, input: Input) {
  const actor = actorOf(identity);
  const create = () =>
    ctx.db.transaction(async (tx) => {
      await assertNameFree(tx, input.name);
      const template = await insertTemplate(tx, {
        id: ulid(),
        name: input.name,
        description: input.description ?? null,
        milestones: await checkMilestones(ctx, tx, input.milestones),
        createdByUserId: actor.userId ?? null,
      });
      const data = describeTemplate(template);
      recordEvent(tx, actor, { type: 'release-plan-template-created', data });
      return data;
    });
  return checkAgainOnDuplicate(create, () => assertNameFree(ctx.db, input.name));
}

export async function changeTemplate(ctx: AppContext, identity: Identity, id: string, input: Input) {
  const actor = actorOf(identity);
  const change = () =>
    ctx.db.transaction(async (tx) => {
      const before = await getTemplate(tx, id, 'update');
      await assertNameFree(tx, input.name, id);
      const after = await updateTemplate(tx, id, {
        name: input.name,
        description: input.description ?? null,
        milestones: await checkMilestones(ctx, tx, input.milestones),
      });
      recordEvent(tx, actor, {
        type: 'release-plan-template-updated',
        data: describeTemplate(after),
        preData: describeTemplate(before),
      });
    });
  await checkAgainOnDuplicate(change, () => assertNameFree(ctx.db, input.name, id));
}

export async function archiveReleaseTemplate(ctx: AppContext, identity: Identity, id: string) {
  await ctx.db.transaction(async (tx) => {
    const template = await getTemplate(tx, id, 'update');
    if (template.archivedAt) return;
    await archiveTemplate(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'release-plan-template-archived',
      data: { id, name: template.name },
    });
  });
}

export async function deleteReleaseTemplate(ctx: AppContext, identity: Identity, id: string) {
  await ctx.db.transaction(async (tx) => {
    const template = await getTemplate(tx, id, 'update');
    await deleteTemplate(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'release-plan-template-deleted',
      preData: describeTemplate(template),
    });
  });
}
