import type { AppContext } from '../app-context.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NoAccessError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { describeProject, getProject } from '../projects/service.js';
import { deleteProject as deleteProjectRow } from '../projects/store.js';
import { deleteArchivedFeaturesOfProject } from './archive-service.js';
import { lockedLiveFeatureCount } from './service.js';

export const DEFAULT_PROJECT = 'default';

/**
 * Deletes a project that holds no live features. Its archived features go with it, each with its
 * own `feature-deleted` event, as when they are deleted from the archive. The project's row is
 * locked first, which also waits for features being created in or moved into it; then its
 * features, which waits for those being revived: the count below is the one the deletion meets.
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
    await deleteProjectRow(tx, id);
    recordEvent(tx, actorOf(identity), {
      type: 'project-deleted',
      project: id,
      preData: describeProject(project),
    });
  });
}
