import type { AppContext } from '../app-context.js';
import { describeListEntry } from '../features/core/reads.js';
import { NotFoundError } from '../http/errors.js';
import type { Identity } from '../http/identity.js';
import type { ProjectVisibility } from '../http/visibility.js';
import { healthRating as projectHealth } from '../projects/service.js';
import {
  findFlagCreators,
  findFlagCreatorsAcross,
  findProjectFacts,
  findProjectStatusFacts,
  type HealthCounts,
  type ProjectFacts,
} from './store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function noSuchProject(project: string): NotFoundError {
  return new NotFoundError(`There is no project with the id "${project}".`);
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** The project's health rating (see projects/), of the counts a statement here made. */
export function healthRating(c: HealthCounts): number {
  return projectHealth({ total: c.total, stale: c.stale, potentiallyStale: c.potentially_stale });
}

/** The rating and counts of the insights answer: active counts the features not marked stale. */
function healthOf(c: HealthCounts) {
  return {
    rating: healthRating(c),
    activeCount: c.total - c.stale,
    potentiallyStaleCount: c.potentially_stale,
    staleCount: c.stale,
  };
}

/**
 * Where a project is in getting started: no feature yet, a first feature that no SDK has reported,
 * or onboarded once SDKs report one of its features.
 */
export function onboardingStatus(firstFeature: string | null, seen: boolean) {
  if (seen) return { status: 'onboarded' as const };
  if (firstFeature) return { status: 'first-flag-created' as const, feature: firstFeature };
  return { status: 'onboarding-started' as const };
}

/** Lead time: days from a feature's creation to its live stage (SDKs reporting it from production). */
function leadTime(f: ProjectFacts) {
  const days = f.lead_times.map((l) => l.days);
  return {
    features: f.lead_times.map((l) => ({ name: l.name, timeToProduction: Math.floor(l.days) })),
    projectAverage: days.length ? oneDecimal(days.reduce((a, b) => a + b, 0) / days.length) : 0,
  };
}

/** The last 30 days against the 30 before. */
function statsOf(f: ProjectFacts) {
  const recent = f.lead_times.filter((l) => Date.now() - new Date(l.since).getTime() <= 30 * DAY_MS);
  return {
    avgTimeToProdCurrentWindow: recent.length
      ? oneDecimal(recent.reduce((sum, l) => sum + l.days, 0) / recent.length)
      : 0,
    createdCurrentWindow: f.created_current,
    createdPastWindow: f.created_past,
    archivedCurrentWindow: f.archived_current,
    archivedPastWindow: f.archived_past,
    projectActivityCurrentWindow: f.activity_current,
    projectActivityPastWindow: f.activity_past,
    projectMembersAddedCurrentWindow: f.members_added,
  };
}

function environmentsOf(f: ProjectFacts) {
  return f.environments.map((e) => ({
    environment: e.environment,
    ...(e.defaultStrategy ? { defaultStrategy: e.defaultStrategy } : {}),
  }));
}

/** The settings Unleash's answers show that Flagpole has no way to set: none is set. */
const UNSET_SETTINGS = {
  featureLimit: null,
  featureNaming: { pattern: null, example: null, description: null },
};

async function factsOf(ctx: AppContext, identity: Identity, project: string): Promise<ProjectFacts> {
  const userId = identity.kind === 'user' ? identity.userId : null;
  const facts = await findProjectFacts(ctx.db, project, userId);
  if (!facts) throw noSuchProject(project);
  return facts;
}

export async function readProjectOverview(ctx: AppContext, identity: Identity, project: string) {
  const f = await factsOf(ctx, identity, project);
  const health = healthRating(f);
  return {
    version: 1 as const,
    name: f.name,
    description: f.description,
    mode: f.mode,
    defaultStickiness: f.default_stickiness,
    ...UNSET_SETTINGS,
    linkTemplates: [],
    members: f.members,
    health,
    technicalDebt: 100 - health,
    environments: environmentsOf(f),
    featureTypeCounts: f.type_counts,
    favorite: f.favorite,
    createdAt: f.created_at,
    updatedAt: f.updated_at,
    onboardingStatus: onboardingStatus(f.first_feature, f.seen),
    stats: statsOf(f),
  };
}

/** The overview with every live feature (as the feature list shows it, with its tags) and health counts. */
export async function readProjectHealthReport(ctx: AppContext, identity: Identity, project: string) {
  const f = await factsOf(ctx, identity, project);
  const health = healthRating(f);
  const favorites = new Set(f.favorite_features);
  return {
    version: 1 as const,
    name: f.name,
    description: f.description,
    defaultStickiness: f.default_stickiness,
    mode: f.mode,
    featureLimit: null,
    members: f.members,
    health,
    technicalDebt: 100 - health,
    environments: environmentsOf(f),
    features: ctx.model.liveFeaturesOf(project).map((feature) => ({
      ...describeListEntry(ctx.model, feature, favorites.has(feature.name)),
      tags: feature.tags,
    })),
    activeCount: f.total - f.stale,
    potentiallyStaleCount: f.potentially_stale,
    staleCount: f.stale,
  };
}

export async function readProjectInsights(ctx: AppContext, identity: Identity, project: string) {
  const f = await factsOf(ctx, identity, project);
  const health = healthOf(f);
  return {
    stats: statsOf(f),
    featureTypeCounts: f.type_counts,
    health,
    technicalDebt: { ...health, rating: 100 - health.rating },
    leadTime: leadTime(f),
    members: { currentMembers: f.members, change: f.members_added },
  };
}

export async function readProjectDora(ctx: AppContext, identity: Identity, project: string) {
  return leadTime(await factsOf(ctx, identity, project));
}

export async function readProjectStatus(ctx: AppContext, project: string) {
  const f = await findProjectStatusFacts(ctx.db, project);
  if (!f) throw noSuchProject(project);
  const health = healthRating(f);
  const stage = (name: string) => ({
    averageDays: f.stage_days[name] ?? null,
    currentFlags: f.stages[name] ?? 0,
  });
  return {
    resources: { members: f.members, apiTokens: f.api_tokens, segments: f.segments },
    activityCountByDate: f.activity,
    health: { current: health },
    technicalDebt: { current: 100 - health },
    lifecycleSummary: {
      initial: stage('initial'),
      preLive: stage('pre-live'),
      live: stage('live'),
      completed: stage('completed'),
      archived: { currentFlags: f.archived, last30Days: f.archived_recently },
    },
    staleFlags: { total: f.stale + f.potentially_stale },
  };
}

export async function readFlagCreators(ctx: AppContext, project: string) {
  const creators = await findFlagCreators(ctx.db, project);
  if (!creators) throw noSuchProject(project);
  return creators;
}

const CREATORS_PAGE = 50;
const MOST_CREATORS = 10_000;

/**
 * A page of the users who created live features of the projects the caller sees. Paging that is not
 * a number in range falls back to the first page of 50, as in Unleash, so the UI's lists never fail.
 */
export async function readFlagCreatorsAcross(
  ctx: AppContext,
  visible: ProjectVisibility,
  paging: { q?: string; offset?: string; limit?: string },
) {
  const limit = Number(paging.limit);
  const offset = Number(paging.offset);
  return findFlagCreatorsAcross(ctx.db, [...visible.hidden], {
    query: paging.q?.trim() || undefined,
    limit: Number.isInteger(limit) && limit > 0 && limit <= MOST_CREATORS ? limit : CREATORS_PAGE,
    // Past the last creator is an empty page; past what a database integer holds is that too.
    offset: Number.isSafeInteger(offset) && offset > 0 ? Math.min(offset, MAX_OFFSET) : 0,
  });
}

const MAX_OFFSET = 2_147_483_647;
