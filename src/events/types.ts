import type { Scope } from '../sync/changes.js';

const FEATURE: readonly Scope[] = ['features'];
const MODEL: readonly Scope[] = ['model'];
const CATALOG: readonly Scope[] = ['catalog'];
const IDENTITY: readonly Scope[] = ['identity'];
const PROFILES: readonly Scope[] = ['profiles'];
const NONE: readonly Scope[] = [];
const SETTINGS: readonly Scope[] = ['settings'];
const ADDONS: readonly Scope[] = ['addons'];

/**
 * Every audit event type, with what its change does to the configuration caches. A new type must
 * be added here, and so be classified: an event that changes nothing SDKs or credentials see
 * (an application registering, feedback) must not make every cache of every process reload.
 */
export const EVENT_SCOPES = {
  'feature-created': FEATURE,
  'feature-metadata-updated': FEATURE,
  'feature-type-updated': CATALOG,
  'feature-stale-on': FEATURE,
  'feature-stale-off': FEATURE,
  'feature-archived': FEATURE,
  'feature-revived': FEATURE,
  'feature-deleted': FEATURE,
  'feature-project-change': FEATURE,
  'feature-environment-enabled': FEATURE,
  'feature-environment-disabled': FEATURE,
  'feature-environment-variants-updated': FEATURE,
  'feature-strategy-add': FEATURE,
  'feature-strategy-update': FEATURE,
  'feature-strategy-remove': FEATURE,
  'strategy-order-changed': FEATURE,
  'feature-dependency-added': FEATURE,
  'feature-dependency-removed': FEATURE,
  'feature-dependencies-removed': FEATURE,
  'feature-tagged': FEATURE,
  'feature-untagged': FEATURE,
  // Lifecycle stages and links are part of the feature the read model holds.
  'feature-completed': FEATURE,
  'feature-uncompleted': FEATURE,
  'feature-link-added': FEATURE,
  'feature-link-updated': FEATURE,
  'feature-link-removed': FEATURE,
  // A user's favorites are read per request: nothing cached, nothing SDKs see.
  'feature-favorited': NONE,
  'feature-unfavorited': NONE,
  'project-favorited': NONE,
  'project-unfavorited': NONE,
  'segment-created': ['segments'],
  'segment-updated': ['segments'],
  'segment-deleted': ['segments'],
  'context-field-created': CATALOG,
  'context-field-updated': CATALOG,
  'context-field-deleted': MODEL,
  'tag-created': CATALOG,
  'tag-deleted': MODEL,
  // Strategy types: the read model checks feature strategies against them.
  'strategy-created': CATALOG,
  'strategy-updated': CATALOG,
  'strategy-deleted': MODEL,
  'strategy-deprecated': CATALOG,
  'strategy-reactivated': CATALOG,
  'tag-type-created': CATALOG,
  'tag-type-updated': CATALOG,
  'tag-type-deleted': MODEL,
  // Projects and environments hold features and scope grants and tokens; a new project holds none
  // yet (its environments are linked in its own record).
  'project-created': ['catalog', 'identity'],
  // A project's mode decides who sees its features: resolved grants are dropped.
  'project-updated': ['catalog', 'identity'],
  'project-deleted': ['model', 'identity'],
  'project-environment-added': MODEL,
  'project-environment-removed': MODEL,
  // Which environments need change requests: part of each project the read model holds.
  'change-request-configuration-updated': CATALOG,
  // A request's own steps: read from the database when asked for; what an applied one changes
  // records the events of those changes.
  'change-request-created': NONE,
  'change-request-discarded': NONE,
  'change-added': NONE,
  'change-edited': NONE,
  'change-discarded': NONE,
  'change-request-sent-to-review': NONE,
  'change-request-approval-added': NONE,
  'change-request-approved': NONE,
  'change-request-rejected': NONE,
  'change-request-cancelled': NONE,
  'change-request-applied': NONE,
  'change-request-scheduled': NONE,
  'change-request-scheduled-application-success': NONE,
  'change-request-scheduled-application-failure': NONE,
  'change-request-schedule-suspended': NONE,
  'change-request-requested-approvers-updated': NONE,
  // Templates are read from the database when used: no cache holds them.
  'release-plan-template-created': NONE,
  'release-plan-template-updated': NONE,
  'release-plan-template-deleted': NONE,
  'release-plan-template-archived': NONE,
  // A plan's started milestone is served to SDKs with its flag.
  'release-plan-added': FEATURE,
  'release-plan-removed': FEATURE,
  'release-plan-milestone-started': FEATURE,
  // Progressions are read from the database when due: no cache holds them.
  'milestone-progression-created': NONE,
  'milestone-progression-updated': NONE,
  'milestone-progression-deleted': NONE,
  'release-plan-progressions-resumed': NONE,
  'release-plan-progressions-paused': NONE,
  // Safeguards are read from the database when checked; a tripped one's own change (a plan paused,
  // an environment switched off) has its own event. One made or removed is a change of its flag's:
  // the flag's read, served from memory, learns from the revision which flags have one.
  'safeguard-changed': FEATURE,
  'safeguard-deleted': FEATURE,
  'safeguard-triggered': NONE,
  // Charts are read from the database when drawn.
  'impact-metric-created': NONE,
  'impact-metric-updated': NONE,
  'impact-metric-deleted': NONE,
  // Read from the database when a feature is switched on: no cache holds it.
  'default-strategy-updated': NONE,
  'environment-created': MODEL,
  'environment-updated': MODEL,
  'environment-deleted': ['model', 'identity'],
  'api-token-created': IDENTITY,
  'api-token-deleted': IDENTITY,
  // A changed expiry counts from the next request: the cached credential is dropped.
  'api-token-updated': IDENTITY,
  'pat-created': IDENTITY,
  'pat-deleted': IDENTITY,
  'user-created': IDENTITY,
  'user-updated': IDENTITY,
  'user-deleted': IDENTITY,
  'user-password-changed': IDENTITY,
  'user-password-reset-requested': NONE,
  // Shown in GET /api/admin/user, which is cached per user.
  'user-feedback-updated': PROFILES,
  'role-created': IDENTITY,
  'role-updated': IDENTITY,
  'role-deleted': IDENTITY,
  'group-created': IDENTITY,
  'group-updated': IDENTITY,
  'group-deleted': IDENTITY,
  'project-access-added': IDENTITY,
  'project-access-user-roles-updated': IDENTITY,
  'project-access-user-roles-deleted': IDENTITY,
  'project-access-group-roles-updated': IDENTITY,
  'project-access-group-roles-deleted': IDENTITY,
  'public-signup-token-created': NONE,
  'public-signup-token-updated': NONE,
  'public-signup-token-user-added': IDENTITY,
  // Settings apply to requests (the maintenance switch, the origins allowed to call the SDK paths):
  // every process reloads them.
  'setting-created': SETTINGS,
  'setting-updated': SETTINGS,
  // State import (E5): one event per item it created or changed, and one per kind of item dropped.
  'feature-import': FEATURE,
  'feature-tag-import': FEATURE,
  // Definitions, as when made by hand (the features they reach are named by their own events).
  'strategy-import': CATALOG,
  'tag-import': CATALOG,
  'tag-type-import': CATALOG,
  'project-import': ['catalog', 'identity'],
  'environment-import': MODEL,
  'segment-import': ['segments'],
  'drop-features': MODEL,
  'drop-strategies': MODEL,
  'drop-tags': MODEL,
  'drop-segments': ['segments'],
  'drop-projects': ['model', 'identity'],
  // Unleash's export and import of one project's features: the changes of an import carry events
  // of their own, these two only say that it happened.
  'features-exported': NONE,
  'features-imported': NONE,
  // Banners are read from the database each time: no cache holds them.
  'banner-created': NONE,
  'banner-updated': NONE,
  'banner-deleted': NONE,
  'application-created': NONE,
  'application-updated': NONE,
  'application-deleted': NONE,
  // Integrations are read from the database when events are recorded and delivered.
  'addon-config-created': ADDONS,
  'addon-config-updated': ADDONS,
  'addon-config-deleted': ADDONS,
} as const satisfies Record<string, readonly Scope[]>;

export type EventType = keyof typeof EVENT_SCOPES;
