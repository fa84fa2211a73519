import { NotFoundError } from './errors.js';
import type { Identity } from './identity.js';

/**
 * The projects a caller may see. A project in the `private` mode is hidden from a user whose root
 * role is Viewer (and whose groups give no Admin or Editor root role) unless they hold a role in
 * it, directly or through a group; everyone else, and admin tokens, see every project — as Unleash
 * decides it. Worked out once per request from what the identity cache and the read model hold.
 */
export interface ProjectVisibility {
  /** The projects hidden from the caller: empty when they see every project. */
  readonly hidden: ReadonlySet<string>;
  /** Whether the caller sees the project; what belongs to no project (null) is seen by all. */
  sees(project: string | null | undefined): boolean;
}

const NONE_HIDDEN: ReadonlySet<string> = new Set();

export const EVERY_PROJECT: ProjectVisibility = { hidden: NONE_HIDDEN, sees: () => true };

export function projectVisibility(
  identity: Identity,
  privateProjects: ReadonlySet<string>,
): ProjectVisibility {
  if (privateProjects.size === 0 || identity.kind === 'token' || identity.privateProjects === 'all') {
    return EVERY_PROJECT;
  }
  const member = identity.privateProjects;
  const hidden = new Set([...privateProjects].filter((p) => !member.has(p)));
  if (hidden.size === 0) return EVERY_PROJECT;
  return { hidden, sees: (project) => project == null || !hidden.has(project) };
}

/** The answer to a project the caller may not see: the same as to one that does not exist. */
export function hiddenProject(project: string): NotFoundError {
  return new NotFoundError(`There is no project with the id "${project}".`);
}

/** 404, as for a project that does not exist, when the caller may not see the project. */
export function assertSeesProject(visibility: ProjectVisibility, project: string): void {
  if (!visibility.sees(project)) throw hiddenProject(project);
}
