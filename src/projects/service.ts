import type { AppContext } from '../app-context.js';
import type { Queryable, Transaction } from '../db/database.js';
import { checkAgainOnDuplicate } from '../db/errors.js';
import type { ReadOptions } from '../db/lock.js';
import { allEnvironments } from '../environments/list.js';
import { enabledEnvironments, listEnvironmentsOfProject } from '../environments/queries.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NotFoundError, ValidationError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import type { ProjectVisibility } from '../http/visibility.js';
import { grantRoles, memberCountsOfProjects } from '../identity/grants.js';
import { requireChangeRequests } from './change-request-settings.js';
import { inEnvironmentOrder } from './linked-environments.js';
import {
  type DefaultStrategy,
  deleteProjectsExcept,
  environmentLinksOf,
  findProject,
  insertProject,
  linkEnvironment,
  linkEnvironments,
  linkedEnvironments,
  listProjects,
  type ProjectRow,
  setDefaultStrategy,
  unlinkEnvironment,
  updateProject as updateProjectRow,
  upsertProjects,
} from './store.js';
import type { Project } from './types.js';

const OWNER_ROLE = 4;

/** The project, or 404: for every path that names one. */
export async function getProject(db: Queryable, id: string, options?: ReadOptions): Promise<Project> {
  const project = await findProject(db, id, options);
  if (!project) throw new NotFoundError(`There is no project with the id "${id}".`);
  return project;
}

export function describeProject(p: Project) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    mode: p.mode,
    defaultStickiness: p.defaultStickiness,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** The names of the environments linked to the project, in their sort order. */
export async function projectEnvironmentNames(db: Queryable, id: string): Promise<string[]> {
  const linked = await linkedEnvironments(db, id);
  return inEnvironmentOrder(await allEnvironments(db), linked);
}

/** Links an environment to a project; false when it already was. */
export function linkProjectEnvironment(db: Queryable, id: string, environment: string): Promise<boolean> {
  return linkEnvironment(db, id, environment);
}

/** Unlinks an environment from a project; false when it was not linked. */
export function unlinkProjectEnvironment(db: Queryable, id: string, environment: string): Promise<boolean> {
  return unlinkEnvironment(db, id, environment);
}

/**
 * Unleash's health rating of a project: 100 less the share (in percent) of its live features that
 * are stale or potentially stale (past their type's expected lifetime); 100 without features.
 */
export function healthRating(c: { total: number; stale: number; potentiallyStale: number }): number {
  if (c.total === 0) return 100;
  return Math.round(100 - (c.stale / c.total) * 100 - (c.potentiallyStale / c.total) * 100);
}

/** Every project the caller sees; `favorites` (the caller's) are marked. */
export async function readProjects(
  db: Queryable,
  visible: ProjectVisibility,
  favorites: ReadonlySet<string> = new Set(),
) {
  const projects = (await listProjects(db)).filter((p) => visible.sees(p.id));
  const members = await memberCountsOfProjects(db);
  return {
    version: 1 as const,
    projects: projects.map((p) => ({
      ...describeProject(p),
      featureCount: p.featureCount,
      memberCount: members.get(p.id) ?? 0,
      health: healthRating({
        total: p.featureCount,
        stale: p.staleCount,
        potentiallyStale: p.potentiallyStaleCount,
      }),
      favorite: favorites.has(p.id),
    })),
  };
}

/** The default strategies the project sets, by environment. */
async function defaultStrategiesOf(db: Queryable, project: string): Promise<Map<string, DefaultStrategy>> {
  const links = await environmentLinksOf(db, project);
  return new Map(
    links.flatMap((l) => (l.defaultStrategy ? [[l.environment, l.defaultStrategy] as const] : [])),
  );
}

/**
 * Every environment, each saying whether the project has it (`visible`) and, where the project
 * sets one, its `defaultStrategy`.
 */
export async function readProjectEnvironments(ctx: AppContext, project: string) {
  const { db } = ctx;
  await getProject(db, project);
  const environments = await listEnvironmentsOfProject(db, project);
  const linked = new Set(await linkedEnvironments(db, project));
  const defaults = await defaultStrategiesOf(db, project);
  // Counted in memory: in SQL, a join of every flag of a large project per environment.
  const enabled = new Map<string, number>();
  for (const feature of ctx.model.liveFeaturesOf(project)) {
    for (const e of feature.environments) if (e.enabled) enabled.set(e.name, (enabled.get(e.name) ?? 0) + 1);
  }
  return {
    version: 1 as const,
    environments: environments.map((e) => {
      const defaultStrategy = defaults.get(e.name);
      return {
        ...e,
        projectEnabledToggleCount: enabled.get(e.name) ?? 0,
        visible: linked.has(e.name),
        ...(defaultStrategy ? { defaultStrategy } : {}),
      };
    }),
  };
}

export async function readProject(db: Queryable, id: string) {
  const project = await getProject(db, id);
  const environments = await projectEnvironmentNames(db, id);
  const defaults = await defaultStrategiesOf(db, id);
  return {
    ...describeProject(project),
    environments: environments.map((environment) => {
      const defaultStrategy = defaults.get(environment);
      return { environment, ...(defaultStrategy ? { defaultStrategy } : {}) };
    }),
  };
}

/** The strategy the project gives a feature switched on in the environment without any, if it sets one. */
export async function findProjectDefaultStrategy(
  db: Queryable,
  project: string,
  environment: string,
): Promise<DefaultStrategy | null> {
  return (await defaultStrategiesOf(db, project)).get(environment) ?? null;
}

/**
 * Stores the project's default strategy for the environment (the caller checked it); 404 when the
 * environment is not one of the project's.
 */
export async function writeProjectDefaultStrategy(
  tx: Transaction,
  project: string,
  environment: string,
  strategy: DefaultStrategy,
): Promise<void> {
  if (!(await setDefaultStrategy(tx, project, environment, strategy))) {
    throw new NotFoundError(
      `The project "${project}" has no environment "${environment}": add it to the project first.`,
    );
  }
}

export interface NewProject {
  id: string;
  name: string;
  description?: string | null;
  mode?: 'open' | 'protected' | 'private';
  defaultStickiness?: string;
  /** Environments where changes need change requests from the start. */
  changeRequestEnvironments?: { name: string; requiredApprovals?: number | null }[];
}

/**
 * A new project gets every enabled environment, and a user who creates one becomes its Owner,
 * so an Editor can go on to grant access to it.
 */
async function assertIdFree(db: Queryable, id: string): Promise<void> {
  if (await findProject(db, id)) throw new NameExistsError(`A project with the id "${id}" already exists.`);
}

export { approvalsWithinLimits, setChangeRequestApprovals } from './change-request-settings.js';

export async function createProject(ctx: AppContext, identity: Identity, input: NewProject) {
  const actor = actorOf(identity);
  const create = () =>
    ctx.db.transaction(async (tx) => {
      await assertIdFree(tx, input.id);
      const project = await insertProject(tx, {
        id: input.id,
        name: input.name,
        description: input.description ?? null,
        mode: input.mode ?? 'open',
        defaultStickiness: input.defaultStickiness ?? 'default',
      });
      const environments = await enabledEnvironments(tx);
      await linkEnvironments(tx, project.id, environments);
      const guarded = await requireChangeRequests(
        tx,
        project.id,
        environments,
        input.changeRequestEnvironments,
      );
      if (identity.kind === 'user')
        await grantRoles(tx, project.id, [OWNER_ROLE], [identity.userId], [], actor.name);
      const data = describeProject(project);
      recordEvent(tx, actor, { type: 'project-created', project: project.id, data });
      for (const event of guarded) recordEvent(tx, actor, event);
      return data;
    });
  return checkAgainOnDuplicate(create, () => assertIdFree(ctx.db, input.id));
}

export interface ProjectUpdate {
  id?: string;
  name: string;
  description?: string | null;
  mode?: 'open' | 'protected' | 'private';
  defaultStickiness?: string;
}

/**
 * PUT: the project's settings become what was sent; `description` is kept when omitted, `mode`
 * and `defaultStickiness` too. The id never changes.
 */
export async function updateProject(ctx: AppContext, identity: Identity, id: string, input: ProjectUpdate) {
  return ctx.db.transaction(async (tx) => {
    if (input.id !== undefined && input.id !== id) {
      throw new ValidationError(
        `A project cannot change its id: the body says "${input.id}" but the path "${id}". ` +
          'Leave `id` out or send the current one.',
        [{ path: 'id', message: 'The id of a project cannot change.' }],
      );
    }
    const before = await getProject(tx, id, { lock: 'update' });
    const after = await updateProjectRow(tx, {
      id,
      name: input.name,
      description: input.description === undefined ? before.description : input.description,
      mode: input.mode ?? before.mode,
      defaultStickiness: input.defaultStickiness ?? before.defaultStickiness,
    });
    recordEvent(tx, actorOf(identity), {
      type: 'project-updated',
      project: id,
      data: describeProject(after),
      preData: describeProject(before),
    });
  });
}

export type { DefaultStrategy, ProjectRow } from './store.js';

/**
 * Creates or overwrites projects as an import lists them (the caller links their environments);
 * answers the ids it created.
 */
export function writeProjects(tx: Transaction, rows: ProjectRow[]): Promise<string[]> {
  return upsertProjects(tx, rows);
}

/** Deletes every project but those listed (an import that replaces everything); answers their ids. */
export function dropProjectsExcept(tx: Transaction, keep: string[]): Promise<string[]> {
  return deleteProjectsExcept(tx, keep);
}
