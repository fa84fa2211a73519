import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmProvider } from './components/confirm';
import { Loading } from './components/status';
import { BannerStrip } from './layout/banner-strip';
import { DefaultPasswordReminder } from './layout/default-password';
import { Header } from './layout/header';
import { NotFound } from './layout/not-found';
import { compilePattern, navigate, useLocation } from './router';
import { type AppRoute, publicRoutes, signedInRoutes } from './routes';
import { SignInPage } from './screens/auth/sign-in-page';
import { SessionGate } from './session';

const compiled = (routes: AppRoute[]) =>
  routes.map((route) => ({ route, match: compilePattern(route.path) }));
const signedIn = compiled(signedInRoutes);
const signedOut = compiled(publicRoutes);

function findRoute(routes: ReturnType<typeof compiled>, path: string) {
  for (const { route, match } of routes) {
    const params = match(path);
    if (params) return { route, params };
  }
  return null;
}

/** A screen starts afresh for another thing (flag, project); its tabs are parts of one screen. */
function screenKey({ tab: _tab, ...params }: Record<string, string>): string {
  return JSON.stringify(params);
}

/** Where a path without a page of its own goes. */
const REDIRECTS: Record<string, string> = {
  '/': '/projects',
  '/login': '/projects',
  '/new-user': '/projects',
};

function SignedInApp() {
  const { path, query } = useLocation();
  const main = useRef<HTMLElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const redirect = REDIRECTS[path];
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);
  // A new page moves the focus to its content, as a page load would, and closes the phone menu.
  const first = useRef(true);
  useEffect(() => {
    setMenuOpen(false);
    if (first.current) first.current = false;
    else main.current?.focus({ preventScroll: true });
  }, [path]);

  const found = findRoute(signedIn, path);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <Header path={path} menuOpen={menuOpen} onMenu={setMenuOpen} />
      <DefaultPasswordReminder />
      <BannerStrip path={path} />
      <main id="main" ref={main} tabIndex={-1}>
        {found ? (
          <found.route.screen key={screenKey(found.params)} params={found.params} query={query} />
        ) : redirect ? null : (
          <NotFound />
        )}
      </main>
    </>
  );
}

function SignedOutApp() {
  const { path, query } = useLocation();
  const found = findRoute(signedOut, path);
  return (
    <main id="main" class="public">
      {found ? (
        <found.route.screen params={found.params} query={query} />
      ) : (
        <SignInPage params={{}} query={query} />
      )}
    </main>
  );
}

export function App() {
  return (
    <ConfirmProvider>
      <SessionGate signedIn={<SignedInApp />} signedOut={<SignedOutApp />} loading={<Loading />} />
    </ConfirmProvider>
  );
}
