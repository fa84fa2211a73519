import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { attachEnvironment, detachEnvironment } from '../features/service.js';
import { NameExistsError, NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { getProject, linkProjectEnvironment, unlinkProjectEnvironment } from '../projects/service.js';
import { getEnvironment } from './service.js';
import { listEnvironmentsOfProject } from './store.js';

/** Every environment, each saying whether the project has it (`visible`). */
export async function readProjectEnvironments(db: Queryable, project: string) {
  await getProject(db, project);
  return { version: 1 as const, environments: await listEnvironmentsOfProject(db, project) };
}

// Linking and unlinking lock the project's row exclusively: that waits for features being created
// in it, and holds new ones back until the link commits, so every feature of the project ends up
// with exactly the project's environments.

/** Links an environment to a project; the project's features get it, disabled. */
export async function addEnvironmentToProject(
  ctx: AppContext,
  identity: Identity,
  project: string,
  environment: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, project, { lock: 'exclusive' });
    await getEnvironment(tx, environment);
    if (!(await linkProjectEnvironment(tx, project, environment))) {
      throw new NameExistsError(`The project "${project}" already has the environment "${environment}".`);
    }
    await attachEnvironment(tx, project, environment);
    recordEvent(tx, actorOf(identity), {
      type: 'project-environment-added',
      project,
      environment,
      data: { project, environment },
    });
  });
}

/**
 * Unlinks an environment from a project; the project's features lose it, with their strategies
 * and variants there.
 */
export async function removeEnvironmentFromProject(
  ctx: AppContext,
  identity: Identity,
  project: string,
  environment: string,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, project, { lock: 'exclusive' });
    if (!(await unlinkProjectEnvironment(tx, project, environment))) {
      throw new NotFoundError(`The project "${project}" does not have the environment "${environment}".`);
    }
    await detachEnvironment(tx, project, environment);
    recordEvent(tx, actorOf(identity), {
      type: 'project-environment-removed',
      project,
      environment,
      preData: { project, environment },
    });
  });
}
