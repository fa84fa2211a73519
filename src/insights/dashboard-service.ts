import type { AppContext } from '../app-context.js';
import { AuthenticationRequired, NotFoundError } from '../http/errors.js';
import type { Identity, UserIdentity } from '../http/identity.js';
import type { ProjectVisibility } from '../http/visibility.js';
import { gravatar } from '../users/service.js';
import {
  findPersonalDashboard,
  findPersonalProject,
  type PersonName,
  type RecentEvent,
} from './dashboard-store.js';
import { healthRating, onboardingStatus } from './service.js';

/** A dashboard is a person's: an API token is nobody (as with favorites). */
function requireUser(identity: Identity): UserIdentity {
  if (identity.kind !== 'user') {
    throw new AuthenticationRequired(
      'The personal dashboard is a user’s: sign in, or use a personal access token.',
    );
  }
  return identity;
}

const imageOf = (p: { imageUrl: string | null; email: string | null }) => p.imageUrl ?? gravatar(p.email);

/** Only the fields a person has: Unleash's answer leaves out what is not there. */
function describeAdmin(p: PersonName) {
  const imageUrl = imageOf(p);
  return {
    id: p.id,
    ...(p.name ? { name: p.name } : {}),
    ...(p.username ? { username: p.username } : {}),
    ...(p.email ? { email: p.email } : {}),
    ...(imageUrl ? { imageUrl } : {}),
  };
}

function describeOwner(p: PersonName) {
  return {
    ownerType: 'user' as const,
    name: p.name ?? p.username ?? p.email ?? String(p.id),
    email: p.email,
    imageUrl: imageOf(p),
  };
}

/** A line about an event, in the markdown the dashboard shows. */
function summaryOf(e: RecentEvent): string {
  const what = e.featureName ? ` on **${e.featureName}**` : '';
  const where = e.environment ? ` in ${e.environment}` : '';
  return `**${e.createdBy}** ${e.type}${what}${where}`;
}

/** The caller's projects and flags, the Admins and the owners of the projects the caller sees. */
export async function readPersonalDashboard(ctx: AppContext, identity: Identity, visible: ProjectVisibility) {
  const user = requireUser(identity);
  const d = await findPersonalDashboard(ctx.db, user.userId, [...visible.hidden]);
  return {
    projects: d.projects.map((p) => {
      const health = healthRating(p);
      return {
        id: p.id,
        name: p.name,
        health,
        technicalDebt: 100 - health,
        memberCount: p.members,
        featureCount: p.total,
      };
    }),
    flags: d.flags,
    admins: d.admins.map(describeAdmin),
    projectOwners: d.owners.map(describeOwner),
  };
}

/**
 * One project on the caller's dashboard. The health averages over past weeks are null: Flagpole
 * keeps no history of health ratings (Unleash answers null too until it has four weeks of it).
 */
export async function readPersonalProject(ctx: AppContext, identity: Identity, project: string) {
  const user = requireUser(identity);
  const p = await findPersonalProject(ctx.db, user.userId, project);
  if (!p) throw new NotFoundError(`There is no project with the id "${project}".`);
  const health = healthRating(p);
  const owners = [
    ...p.owner_users.map(describeOwner),
    ...p.owner_groups.map((g) => ({ ownerType: 'group' as const, name: g.name })),
  ];
  return {
    latestEvents: p.events.map((e) => ({
      id: e.id,
      summary: summaryOf(e),
      createdBy: e.createdBy,
      createdByImageUrl: e.imageUrl ?? gravatar(e.email ?? e.createdBy)!,
      createdAt: e.createdAt,
    })),
    onboardingStatus: onboardingStatus(p.first_feature, p.seen),
    owners: owners.length > 0 ? owners : [{ ownerType: 'system' as const }],
    roles: p.roles,
    insights: {
      avgHealthCurrentWindow: null,
      avgHealthPastWindow: null,
      totalFlags: p.total,
      activeFlags: p.total - p.stale - p.potentially_stale,
      staleFlags: p.stale,
      potentiallyStaleFlags: p.potentially_stale,
      health,
      technicalDebt: 100 - health,
    },
  };
}
