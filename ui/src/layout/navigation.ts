import type { Session } from '../session';

/** A link of the header's navigation; `visible` says who sees it (everyone unless said). */
export interface NavItem {
  href: string;
  label: string;
  visible?(session: Session): boolean;
}

const isAdmin = (session: Session) => session.isAdmin;
const managesRoles = (session: Session) =>
  ['CREATE_ROLE', 'UPDATE_ROLE', 'DELETE_ROLE'].some((p) => session.can(p));
const managesTemplates = (session: Session) =>
  ['RELEASE_PLAN_TEMPLATE_CREATE', 'RELEASE_PLAN_TEMPLATE_UPDATE', 'RELEASE_PLAN_TEMPLATE_DELETE'].some((p) =>
    session.can(p),
  );
const seesTokens = (session: Session) =>
  ['ADMIN', 'READ_CLIENT_API_TOKEN', 'READ_FRONTEND_API_TOKEN'].some((p) => session.can(p));

/** The main navigation, in the order of the header. */
export const mainNavigation: NavItem[] = [
  { href: '/projects', label: 'Projects' },
  { href: '/flags', label: 'Flags' },
  { href: '/segments', label: 'Segments' },
  { href: '/strategies', label: 'Strategies' },
  { href: '/context', label: 'Context fields' },
  { href: '/playground', label: 'Playground' },
  { href: '/applications', label: 'Applications' },
  { href: '/events', label: 'Event log' },
];

/** The administration pages, each shown to those who may use it. */
export const adminNavigation: NavItem[] = [
  { href: '/admin/users', label: 'Users', visible: isAdmin },
  { href: '/admin/groups', label: 'Groups', visible: isAdmin },
  { href: '/admin/roles', label: 'Roles', visible: managesRoles },
  { href: '/admin/invite-links', label: 'Invite links', visible: isAdmin },
  { href: '/admin/api-tokens', label: 'API tokens', visible: seesTokens },
  { href: '/admin/environments', label: 'Environments', visible: isAdmin },
  { href: '/admin/tag-types', label: 'Tag types' },
  { href: '/admin/integrations', label: 'Integrations', visible: isAdmin },
  { href: '/admin/banners', label: 'Banners' },
  { href: '/impact-metrics', label: 'Impact metrics', visible: isAdmin },
  { href: '/release-templates', label: 'Release templates', visible: managesTemplates },
  { href: '/admin/oidc', label: 'Single sign-on', visible: isAdmin },
  { href: '/admin/import-export', label: 'Import and export', visible: isAdmin },
];
