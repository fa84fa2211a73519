import type { Role } from '../api/people';

/** What each type of role is, as lists and forms name it. */
export const ROLE_KINDS: Record<Role['type'], string> = {
  root: 'Root role, built in',
  project: 'Project role, built in',
  'root-custom': 'Root role',
  custom: 'Project role',
};
