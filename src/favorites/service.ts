import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { getFeature, getLiveFeature } from '../features/core/service.js';
import { AuthenticationRequired } from '../http/errors.js';
import { actorOf, type Identity, type UserIdentity } from '../http/identity.js';
import { getProject } from '../projects/service.js';
import {
  deleteFavoriteFeature,
  deleteFavoriteProject,
  insertFavoriteFeature,
  insertFavoriteProject,
  listFavoriteFeatures,
  listFavoriteProjects,
} from './store.js';

// Favorites are a user's bookmarks, not configuration: a change records its audit event but moves
// no revision, and the answers that show them read them for the user asking.

/** An API token is nobody, so it has no favorites (as with feedback, E8). */
function requireUser(identity: Identity): UserIdentity {
  if (identity.kind !== 'user') {
    throw new AuthenticationRequired('Favorites belong to a user: sign in, or use a personal access token.');
  }
  return identity;
}

/** The user's favorite features (of one project, or of all); none for an API token. */
export async function favoriteFeaturesOf(
  db: Queryable,
  identity: Identity,
  project?: string,
): Promise<ReadonlySet<string>> {
  if (identity.kind !== 'user') return new Set();
  return new Set(await listFavoriteFeatures(db, identity.userId, project));
}

/** The user's favorite projects; none for an API token. */
export async function favoriteProjectsOf(db: Queryable, identity: Identity): Promise<ReadonlySet<string>> {
  if (identity.kind !== 'user') return new Set();
  return new Set(await listFavoriteProjects(db, identity.userId));
}

export async function favoriteFeature(ctx: AppContext, identity: Identity, project: string, name: string) {
  const user = requireUser(identity);
  await ctx.db.transaction(async (tx) => {
    await getLiveFeature(tx, project, name);
    if (!(await insertFavoriteFeature(tx, user.userId, name))) return;
    recordEvent(tx, actorOf(identity), {
      type: 'feature-favorited',
      project,
      featureName: name,
      data: { feature: name },
    });
  });
}

/** Also for an archived feature, which stays a favorite until taken off. */
export async function unfavoriteFeature(ctx: AppContext, identity: Identity, project: string, name: string) {
  const user = requireUser(identity);
  await ctx.db.transaction(async (tx) => {
    await getFeature(tx, project, name, { includeArchived: true });
    if (!(await deleteFavoriteFeature(tx, user.userId, name))) return;
    recordEvent(tx, actorOf(identity), {
      type: 'feature-unfavorited',
      project,
      featureName: name,
      data: { feature: name },
    });
  });
}

export async function favoriteProject(ctx: AppContext, identity: Identity, project: string) {
  const user = requireUser(identity);
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, project);
    if (!(await insertFavoriteProject(tx, user.userId, project))) return;
    recordEvent(tx, actorOf(identity), { type: 'project-favorited', project, data: { project } });
  });
}

export async function unfavoriteProject(ctx: AppContext, identity: Identity, project: string) {
  const user = requireUser(identity);
  await ctx.db.transaction(async (tx) => {
    await getProject(tx, project);
    if (!(await deleteFavoriteProject(tx, user.userId, project))) return;
    recordEvent(tx, actorOf(identity), { type: 'project-unfavorited', project, data: { project } });
  });
}
