import type { User } from './types';

export interface Role {
  id: number;
  name: string;
  description: string;
  type: 'root' | 'project' | 'root-custom' | 'custom';
}

/** A group of users, with the root role its members get. */
export interface Group {
  id: number;
  name: string;
  description: string | null;
  rootRole: number | null;
  userCount?: number;
  users?: { user: { id: number; name: string | null; username: string | null; email: string | null } }[];
}

export interface UserList {
  users: User[];
  rootRoles: Role[];
}

/** A person's name as lists show it. */
export function displayName(user: Pick<User, 'name' | 'username' | 'email'> & { id: number }): string {
  return user.name || user.username || user.email || `User ${user.id}`;
}
