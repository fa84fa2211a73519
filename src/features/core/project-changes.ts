import type { AppContext } from '../../app-context.js';
import { deleteProjectContextFields } from '../../context/service.js';
import type { Transaction } from '../../db/database.js';
import { getEnvironment } from '../../environments/service.js';
import { recordEvent } from '../../events/service.js';
import { NameExistsError, NoAccessError, NotFoundError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import {
  describeProject,
  getProject,
  linkProjectEnvironment,
  unlinkProjectEnvironment,
} from '../../projects/service.js';
import { deleteProject as deleteProjectRow } from '../../projects/writes.js';
import { discardProjectApiTokens } from '../../tokens/service.js';
import { deleteArchivedFeaturesOfProject } from '../archive/service.js';
import { attachProjectFeatures, detachProjectFeatures } from '../environments/writes.js';
import { deleteProjectStrategiesIn } from '../strategies/writes.js';
import { findFeaturesOfProject } from './store.js';

// The changes of a project that reach its features: deleting it, and linking or unlinking an
// environment. They run here, above projects/ and environments/, which know nothing of features.

export const DEFAULT_PROJECT = 'default';

/**
 * How many of the project's features are live, with every feature of the project locked, so none
 * is revived, archived or moved between this count and the deletion.
 */
async function lockedLiveFeatureCount(tx: Transaction, project: string): Promise<number> {
  const features = await findFeaturesOfProject(tx, project, { lock: 'exclusive' });
  return features.filter((f) => f.archivedAt === null).length;
}

/**
 * Deletes a project that holds no live features. Its archived features go with it, each with its
 * own `feature-deleted` event, as when they are deleted from the archive, and so do its context
 * fields, each with its `context-field-deleted`, and its API tokens (a token of several projects
 * only loses it from its list). The project's row is locked first, which also waits for features
 * being created in or moved into it; then its features, which waits for those being revived: the
 * count below is the one the deletion meets.
 */
export async function deleteProject(ctx: AppContext, identity: Identity, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const project = await getProject(tx, id, { lock: 'exclusive' });
    if (id === DEFAULT_PROJECT) {
      throw new NoAccessError('The project "default" cannot be deleted; every instance keeps it.');
    }
    const live = await lockedLiveFeatureCount(tx, id);
    if (live > 0) {
      throw new NameExistsError(
        `The project "${id}" still holds ${live} feature${live === 1 ? '' : 's'} that ${live === 1 ? 'is' : 'are'} not archived: ` +
          'archive or move them first.',
      );
    }
    await deleteArchivedFeaturesOfProject(tx, identity, id);
    await deleteProjectContextFields(tx, actorOf(identity), id);
    await discardProjectApiTokens(tx, actorOf(identity), id);
    await deleteProjectRow(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'project-deleted',
      project: id,
      preData: describeProject(project),
    });
  });
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
    await attachProjectFeatures(tx, project, environment);
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
    await deleteProjectStrategiesIn(tx, project, environment);
    await detachProjectFeatures(tx, project, environment);
    recordEvent(tx, actorOf(identity), {
      type: 'project-environment-removed',
      project,
      environment,
      preData: { project, environment },
    });
  });
}
