import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, api, onSessionEnded, type SignInChoices } from './api/client';
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

type State =
  | { kind: 'loading' }
  | { kind: 'signedOut'; choices: SignInChoices }
  | { kind: 'signedIn'; me: CurrentUser };

/** A 401 that does not say how to sign in (a proxy's): the password form, as ever. */
const PASSWORD_ONLY: SignInChoices = { defaultHidden: false, options: [] };

const signedOutBy = (error: ApiError): State => ({
  kind: 'signedOut',
  choices: error.signIn ?? PASSWORD_ONLY,
});

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

/**
 * Signed in as whom, or signed out with the ways to sign in. Asked of `/auth/session`, which
 * answers a signed-out browser with a 200 (a 401 is logged in the console as a failed request) and a
 * signed-in one with what `/api/admin/user` says.
 */
async function readSession(): Promise<State> {
  try {
    const session = await api.get<{ signedIn: boolean; me?: CurrentUser } & Partial<SignInChoices>>(
      '/auth/session',
    );
    if (!session.signedIn) {
      return {
        kind: 'signedOut',
        choices: { defaultHidden: session.defaultHidden ?? false, options: session.options ?? [] },
      };
    }
    return { kind: 'signedIn', me: session.me ?? (await api.get<CurrentUser>('/api/admin/user')) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return signedOutBy(error);
    throw error;
  }
}

/** Shows `signedIn` with a session, `signedOut` without one; a session that ends on the server ends here. */
export function SessionGate({ signedIn, signedOut, loading }: Props) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const refresh = useCallback(async () => {
    setState(await readSession());
  }, []);
  useEffect(() => {
    refresh();
    return onSessionEnded((error) => setState(signedOutBy(error)));
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
        const answer = await api.post<{ redirect?: string } | undefined>('/logout');
        // Single sign-out: the provider ends its session too, then sends the browser back here.
        if (typeof answer?.redirect === 'string') window.location.assign(answer.redirect);
        // Read again rather than assumed: the 401 says how one may sign in now.
        else await refresh();
      },
    };
  }, [state, refresh]);

  const signIn = useMemo<SignIn>(
    () => ({ signedIn: refresh, choices: state.kind === 'signedOut' ? state.choices : PASSWORD_ONLY }),
    [state, refresh],
  );

  if (state.kind === 'loading') return <>{loading}</>;
  return (
    <SessionContext.Provider value={session}>
      <SignInContext.Provider value={signIn}>{session ? signedIn : signedOut}</SignInContext.Provider>
    </SessionContext.Provider>
  );
}

interface SignIn {
  /** Tells the gate that a session now exists. */
  signedIn(): Promise<void>;
  /** The ways to sign in the server offers. */
  choices: SignInChoices;
}

const SignInContext = createContext<SignIn>({ signedIn: async () => {}, choices: PASSWORD_ONLY });

/** For the sign-in page: tells the gate that a session now exists. */
export function useSignedIn(): () => Promise<void> {
  return useContext(SignInContext).signedIn;
}

/** For the sign-in page: the ways to sign in the server's last 401 offered. */
export function useSignInChoices(): SignInChoices {
  return useContext(SignInContext).choices;
}
