import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, api, onSessionEnded } from './api/client';
import type { CurrentUser, Grant } from './api/types';

export interface Scope {
  project?: string;
  environment?: string;
}

/**
 * Whether the grants allow a permission where the scope says, as the server decides it: root
 * grants apply everywhere (ADMIN is every permission), project grants in their project, and in
 * their environment when they name one.
 */
function allows(grants: Grant[], permission: string, scope: Scope = {}): boolean {
  return grants.some((g) => {
    if (g.project === undefined) return g.permission === 'ADMIN' || g.permission === permission;
    return (
      g.permission === permission &&
      g.project === scope.project &&
      (!g.environment || scope.environment === undefined || g.environment === scope.environment)
    );
  });
}

export interface Session {
  me: CurrentUser;
  can(permission: string, scope?: Scope): boolean;
  isAdmin: boolean;
  /** Reads the user and their permissions again (after a change of roles). */
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

type State = { kind: 'loading' } | { kind: 'signedOut' } | { kind: 'signedIn'; me: CurrentUser };

const SessionContext = createContext<Session | null>(null);

/** The signed-in user; only inside the part of the app that needs a session. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside a signed-in page');
  return session;
}

/** Whether the signed-in user may do something; false outside a signed-in page. */
export function useCan(permission: string, scope?: Scope): boolean {
  const session = useContext(SessionContext);
  return session?.can(permission, scope) ?? false;
}

interface Props {
  signedIn: ComponentChildren;
  signedOut: ComponentChildren;
  loading: ComponentChildren;
}

async function readCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await api.get<CurrentUser>('/api/admin/user');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Shows `signedIn` with a session, `signedOut` without one; a session that ends on the server ends here. */
export function SessionGate({ signedIn, signedOut, loading }: Props) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const refresh = useCallback(async () => {
    const me = await readCurrentUser();
    setState(me ? { kind: 'signedIn', me } : { kind: 'signedOut' });
  }, []);
  useEffect(() => {
    refresh();
    return onSessionEnded(() => setState({ kind: 'signedOut' }));
  }, [refresh]);

  const session = useMemo<Session | null>(() => {
    if (state.kind !== 'signedIn') return null;
    const { me } = state;
    return {
      me,
      can: (permission, scope) => allows(me.permissions, permission, scope),
      isAdmin: allows(me.permissions, 'ADMIN'),
      refresh,
      signOut: async () => {
        await api.post('/logout');
        setState({ kind: 'signedOut' });
      },
    };
  }, [state, refresh]);

  if (state.kind === 'loading') return <>{loading}</>;
  return (
    <SessionContext.Provider value={session}>
      <SignInContext.Provider value={refresh}>{session ? signedIn : signedOut}</SignInContext.Provider>
    </SessionContext.Provider>
  );
}

const SignInContext = createContext<() => Promise<void>>(async () => {});

/** For the sign-in page: tells the gate that a session now exists. */
export function useSignedIn(): () => Promise<void> {
  return useContext(SignInContext);
}
