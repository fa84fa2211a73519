/** A permission held in a scope: `project` null means instance-wide (a root role). */
export interface Grant {
  permission: string;
  project: string | null;
  /** '' means every environment. */
  environment: string;
}

export interface UserIdentity {
  kind: 'user';
  userId: number;
  /** Shown as `createdBy` in audit events: the username, or the email when there is none. */
  name: string;
  rootRoleId: number;
  grants: Grant[];
  /**
   * The private projects the user sees: 'all' (any root role but Viewer, or a group's Admin or
   * Editor root role), or those they hold a role in, directly or through a group.
   */
  privateProjects: 'all' | ReadonlySet<string>;
  /** 'job': work done later on the user's behalf, with no request (a scheduled change request). */
  via: 'session' | 'pat' | 'job';
  /** The hash of the session id, when signed in through a session cookie. */
  sessionHash?: string;
}

export type TokenKind = 'admin' | 'client' | 'frontend';

export interface TokenIdentity {
  kind: 'token';
  tokenType: TokenKind;
  tokenId: number;
  name: string;
  /** ['*'] for every project. */
  projects: string[];
  /** '*' for admin tokens. */
  environment: string;
}

export type Identity = UserIdentity | TokenIdentity;

/** What an audit event records about who made a change. */
export interface Actor {
  name: string;
  userId: number | null;
}

export const SYSTEM_ACTOR: Actor = { name: 'system', userId: null };

export function actorOf(identity: Identity): Actor {
  return identity.kind === 'user'
    ? { name: identity.name, userId: identity.userId }
    : { name: identity.name, userId: null };
}
