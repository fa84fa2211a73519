import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import { recordEvent } from '../events/service.js';
import { unstorable } from '../http/body/checks.js';
import { NameExistsError, NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { getProject } from '../projects/service.js';
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

/** The longest id a path may name (the schemas' bound): ULIDs are 26 characters. */
const MAX_ID_LENGTH = 100;

export type { Template } from './store.js';

/** A template as Unleash answers it; each milestone and strategy names what it belongs to. */
export function describeTemplate(t: Template) {
  return {
    id: t.id,
    discriminator: 'template' as const,
    name: t.name,
    description: t.description,
    project: t.project,
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

async function assertNameFree(
  db: Queryable,
  name: string,
  project: string | null,
  except?: string,
): Promise<void> {
  if (await liveNameTaken(db, name, project, except)) {
    throw new NameExistsError(
      `A release template named "${name}" already exists${project ? ` in the project "${project}"` : ''}.`,
    );
  }
}

/** The template; with `project` (a path that names one), only one of that project, else 404. */
export async function getTemplate(
  db: Queryable,
  id: string,
  options: { lock?: 'update'; project?: string } = {},
): Promise<Template> {
  const template = await findTemplate(db, id, { lock: options.lock });
  if (!template || (options.project !== undefined && template.project !== options.project)) {
    throw new NotFoundError(
      `No release template${options.project !== undefined ? ` of the project "${options.project}"` : ''} has the id "${id}".`,
    );
  }
  return template;
}

/**
 * The route config of a path that names a template (`:id`) but not its project: the permission is
 * checked in the template's project, if it has one, and one of a project hidden from the caller is
 * answered as one that does not exist.
 */
export function templateNamedScope(ctx: AppContext) {
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;
  return {
    // Before the path is validated: an id no template can have is looked for nowhere.
    projectOf: async (request: { params: unknown }) => {
      const id = idOf(request);
      if (id.length > MAX_ID_LENGTH || unstorable(id)) return undefined;
      return (await findTemplate(ctx.db, id))?.project ?? undefined;
    },
    notFound: (request: { params: unknown }) =>
      new NotFoundError(`No release template has the id "${idOf(request)}".`),
  };
}

/** The templates in use of no project; of `project`, with those of no project when `withRoot`. */
export async function readTemplates(ctx: AppContext, project: string | null = null, withRoot = false) {
  if (project !== null) await getProject(ctx.db, project);
  return (await listLiveTemplates(ctx.db, project, withRoot)).map(describeTemplate);
}

export async function readTemplate(ctx: AppContext, id: string) {
  return describeTemplate(await getTemplate(ctx.db, id));
}

/** Makes a template of no project, or (`project`) one offered in that project only. */
export async function createTemplate(
  ctx: AppContext,
  identity: Identity,
  input: Input,
  project: string | null = null,
) {
  const actor = actorOf(identity);
  const create = () =>
    ctx.db.transaction(async (tx) => {
      if (project !== null) await getProject(tx, project, { lock: 'share' });
      await assertNameFree(tx, input.name, project);
      const template = await insertTemplate(tx, {
        id: ulid(),
        name: input.name,
        description: input.description ?? null,
        project,
        milestones: await checkMilestones(ctx, tx, input.milestones, project ?? ''),
        createdByUserId: actor.userId ?? null,
      });
      const data = describeTemplate(template);
      recordEvent(tx, actor, { type: 'release-plan-template-created', project, data });
      return data;
    });
  return checkAgainOnDuplicate(create, () => assertNameFree(ctx.db, input.name, project));
}

/** `project`: the project a path names, which the template must be of. */
export async function changeTemplate(
  ctx: AppContext,
  identity: Identity,
  id: string,
  input: Input,
  project?: string,
) {
  const actor = actorOf(identity);
  let scope: string | null = project ?? null;
  const change = () =>
    ctx.db.transaction(async (tx) => {
      const before = await getTemplate(tx, id, { lock: 'update', project });
      scope = before.project;
      await assertNameFree(tx, input.name, before.project, id);
      const after = await updateTemplate(tx, id, {
        name: input.name,
        description: input.description ?? null,
        milestones: await checkMilestones(ctx, tx, input.milestones, before.project ?? ''),
      });
      recordEvent(tx, actor, {
        type: 'release-plan-template-updated',
        project: after.project,
        data: describeTemplate(after),
        preData: describeTemplate(before),
      });
    });
  await checkAgainOnDuplicate(change, () => assertNameFree(ctx.db, input.name, scope, id));
}

export async function archiveReleaseTemplate(
  ctx: AppContext,
  identity: Identity,
  id: string,
  project?: string,
) {
  await ctx.db.transaction(async (tx) => {
    const template = await getTemplate(tx, id, { lock: 'update', project });
    if (template.archivedAt) return;
    await archiveTemplate(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'release-plan-template-archived',
      project: template.project,
      data: { id, name: template.name },
    });
  });
}

export async function deleteReleaseTemplate(ctx: AppContext, identity: Identity, id: string) {
  await ctx.db.transaction(async (tx) => {
    const template = await getTemplate(tx, id, { lock: 'update' });
    await deleteTemplate(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'release-plan-template-deleted',
      project: template.project,
      preData: describeTemplate(template),
    });
  });
}
