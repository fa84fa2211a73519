import type { ComponentType } from 'preact';
import { lazy } from './components/lazy';
import type { RouteProps } from './router';
import { NewUserPage } from './screens/auth/new-user-page';
import { ResetPasswordPage } from './screens/auth/reset-password-page';
import { SignInPage } from './screens/auth/sign-in-page';
import { FlagPage } from './screens/flag/flag-page';
import { StrategyPage } from './screens/flag/strategy-page';
import { CreateFlagPage } from './screens/flags/create-flag-page';
import { FlagsPage } from './screens/flags/flags-page';
import { ProjectPage } from './screens/flags/project-page';
import type { lazyScreens } from './screens/lazy-screens';
import { CreateProjectPage } from './screens/projects/create-project-page';
import { ProjectsPage } from './screens/projects/projects-page';

export interface AppRoute {
  path: string;
  screen: ComponentType<RouteProps>;
}

// The screens a person opens first are in the main bundle; the rest load when first visited.
const later = (name: keyof typeof lazyScreens) =>
  lazy<RouteProps>(() => import('./screens/lazy-screens').then((m) => m.lazyScreens[name]));
// Apart from the other later screens: it brings the chart library, which they should not wait for.
const impactMetrics = lazy<RouteProps>(() =>
  import('./screens/impact-metrics/impact-metrics-page').then((m) => m.ImpactMetricsPage),
);

/** Pages for people without a session: sign in, join with an invite, set a password from a reset link. */
export const publicRoutes: AppRoute[] = [
  { path: '/new-user', screen: NewUserPage },
  { path: '/reset-password', screen: ResetPasswordPage },
  { path: '/login', screen: SignInPage },
];

/** Every page of a signed-in user; the first pattern that matches a path wins. */
export const signedInRoutes: AppRoute[] = [
  // A reset link works whoever is signed in on this browser.
  { path: '/reset-password', screen: ResetPasswordPage },
  { path: '/flags', screen: FlagsPage },
  { path: '/projects', screen: ProjectsPage },
  { path: '/create-project', screen: CreateProjectPage },
  { path: '/projects/:projectId', screen: ProjectPage },
  { path: '/projects/:projectId/access', screen: later('projectAccess') },
  { path: '/projects/:projectId/api-tokens', screen: later('projectTokens') },
  { path: '/projects/:projectId/settings', screen: later('projectSettings') },
  { path: '/projects/:projectId/change-requests', screen: later('changeRequests') },
  { path: '/projects/:projectId/change-requests/:changeRequestId', screen: later('changeRequest') },
  { path: '/projects/:projectId/create-flag', screen: CreateFlagPage },
  { path: '/projects/:projectId/features/:featureName/strategies/new', screen: StrategyPage },
  { path: '/projects/:projectId/features/:featureName/strategies/:strategyId', screen: StrategyPage },
  { path: '/projects/:projectId/features/:featureName', screen: FlagPage },
  { path: '/projects/:projectId/features/:featureName/:tab', screen: FlagPage },
  { path: '/segments', screen: later('segments') },
  { path: '/create-segment', screen: later('segment') },
  { path: '/segments/:segmentId', screen: later('segment') },
  { path: '/strategies', screen: later('strategyTypes') },
  { path: '/create-strategy', screen: later('strategyType') },
  { path: '/strategies/:strategyName', screen: later('strategyType') },
  { path: '/context', screen: later('contextFields') },
  { path: '/create-context-field', screen: later('contextField') },
  { path: '/context/:fieldName', screen: later('contextField') },
  { path: '/applications', screen: later('applications') },
  { path: '/applications/:appName', screen: later('application') },
  { path: '/events', screen: later('events') },
  { path: '/playground', screen: later('playground') },
  { path: '/profile', screen: later('profile') },
  { path: '/admin/users', screen: later('users') },
  { path: '/admin/groups', screen: later('groups') },
  { path: '/create-group', screen: later('group') },
  { path: '/admin/groups/:groupId', screen: later('group') },
  { path: '/admin/roles', screen: later('roles') },
  { path: '/create-role', screen: later('role') },
  { path: '/admin/roles/:roleId', screen: later('role') },
  { path: '/admin/invite-links', screen: later('inviteLinks') },
  { path: '/admin/api-tokens', screen: later('apiTokens') },
  { path: '/admin/environments', screen: later('environments') },
  { path: '/admin/tag-types', screen: later('tagTypes') },
  { path: '/admin/integrations', screen: later('integrations') },
  { path: '/admin/integrations/:integrationId', screen: later('integration') },
  { path: '/admin/banners', screen: later('banners') },
  { path: '/impact-metrics', screen: impactMetrics },
  { path: '/admin/oidc', screen: later('oidc') },
  { path: '/admin/import-export', screen: later('importExport') },
  { path: '/release-templates', screen: later('releaseTemplates') },
  { path: '/create-release-template', screen: later('releaseTemplate') },
  { path: '/release-templates/:templateId', screen: later('releaseTemplate') },
];
