import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { favoriteFeaturesOf } from '../favorites/service.js';
import { readFeatureTypes } from '../feature-types/service.js';
import { describeListEnvironment } from '../features/core/reads.js';
import { currentStage, describeLifecycle, STAGES } from '../features/lifecycle/stages.js';
import type { Identity } from '../http/identity.js';
import type { ProjectVisibility } from '../http/visibility.js';
import type { FeatureModel } from '../read-model/model.js';
import type { FeatureRecord } from '../read-model/queries.js';
import { findUsers } from '../users/queries.js';
import { gravatar } from '../users/service.js';
import {
  dayStart,
  type Filter,
  integers,
  matchesOne,
  matchesSet,
  matchesSome,
  parseFilter,
} from './filters.js';
import { enabledStrategiesIn } from './reach.js';
import type { FeatureSearchQuery } from './schemas.js';

type Query = Static<typeof FeatureSearchQuery>;

/** Who a feature created without a user shows as: an API token, with Unleash's id for one. */
export const TOKEN_CREATOR = { id: -42, name: 'Admin token', imageUrl: '' };

const DAY_MS = 86_400_000;

/** A test every feature found must pass, worked out once per search. */
type Test = (f: FeatureRecord) => boolean;

function stageOf(f: FeatureRecord): string | null {
  return f.archivedAt ? 'archived' : (currentStage(f.stages)?.stage ?? null);
}

function dayFilter(text: string, parameter: string, value: (f: FeatureRecord) => Date | null) {
  const { operator, values } = parseFilter(text);
  const day = dayStart(values[0]!, parameter).getTime();
  return (f: FeatureRecord) => {
    const at = value(f)?.getTime();
    if (at === undefined) return false;
    return operator === 'IS_BEFORE' ? at < day : at >= day;
  };
}

/** Whether archived features are searched: only they with `archived=IS:true`, or when a stage filter may want them. */
function archivedWanted(q: Query, lifecycle: Filter | null): boolean | 'only' {
  if (q.archived === 'IS:true') return 'only';
  if (q.archived === 'IS:false' || !lifecycle) return false;
  return matchesOne(lifecycle, 'archived');
}

async function buildSearch(ctx: AppContext, q: Query, favorites: ReadonlySet<string>) {
  const filters: Test[] = [];
  const add = (test: Test) => filters.push(test);
  const lifecycle = q.lifecycle ? parseFilter(q.lifecycle) : null;
  const archived = archivedWanted(q, lifecycle);
  add(
    archived === 'only' ? (f) => f.archivedAt !== null : archived ? () => true : (f) => f.archivedAt === null,
  );
  if (lifecycle) add((f) => matchesOne(lifecycle, stageOf(f)));
  if (q.project) {
    const filter = parseFilter(q.project);
    add((f) => matchesOne(filter, f.project));
  }
  if (q.type) {
    const filter = parseFilter(q.type);
    add((f) => matchesOne(filter, f.type));
  }
  if (q.createdBy) {
    const ids = integers(parseFilter(q.createdBy), 'createdBy').map(String);
    const filter = { ...parseFilter(q.createdBy), values: ids };
    add((f) => matchesOne(filter, String(f.createdByUserId ?? TOKEN_CREATOR.id)));
  }
  if (q.state) {
    const filter = parseFilter(q.state);
    const lifetimes = new Map((await readFeatureTypes(ctx.db)).types.map((t) => [t.id, t.lifetimeDays]));
    const now = Date.now();
    add((f) => {
      const days = lifetimes.get(f.type);
      const overdue = !f.stale && days != null && now - f.createdAt.getTime() >= days * DAY_MS;
      const states = f.stale ? ['stale'] : overdue ? ['active', 'potentially-stale'] : ['active'];
      return matchesSome(filter, states);
    });
  }
  if (q.tag) {
    const filter = parseFilter(q.tag);
    add((f) => matchesSet(filter, new Set(f.tags.map((t) => `${t.type}:${t.value}`))));
  }
  if (q.segment) {
    const filter = parseFilter(q.segment);
    add((f) => matchesSet(filter, new Set(segmentNames(ctx.model, f))));
  }
  if (q.status?.length) {
    const wanted = q.status.map((s) => s.split(':') as [string, string]);
    add((f) =>
      wanted.some(([env, state]) =>
        f.environments.some((e) => e.name === env && e.enabled === (state === 'enabled')),
      ),
    );
  }
  if (q.favorite) {
    const filter = parseFilter(q.favorite);
    add((f) => filter.values.includes(String(favorites.has(f.name))));
  }
  if (q.createdAt) add(dayFilter(q.createdAt, 'createdAt', (f) => f.createdAt));
  if (q.lastSeenAt) add(dayFilter(q.lastSeenAt, 'lastSeenAt', (f) => f.lastSeenAt));
  const words = (q.query ?? '')
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== '');
  if (words.length > 0) {
    add((f) => {
      const texts = [f.name, f.description ?? '', ...f.tags.map((t) => `${t.type}:${t.value}`)].map((t) =>
        t.toLowerCase(),
      );
      return words.some((w) => texts.some((t) => t.includes(w)));
    });
  }
  return filters;
}

function segmentNames(model: FeatureModel, f: FeatureRecord): string[] {
  const ids = new Set(f.strategies.flatMap((s) => s.segments));
  return [...ids]
    .map((id) => model.segment(id)?.name)
    .filter((n): n is string => n !== undefined)
    .sort();
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order asked for; `createdAt` for names it does not know, as in Unleash. Missing values go last. */
function comparator(sortBy: string | undefined, order: 'asc' | 'desc') {
  const sign = order === 'desc' ? -1 : 1;
  const keyed = <T>(key: (f: FeatureRecord) => T | null, compare: (a: T, b: T) => number) => {
    return (a: FeatureRecord, b: FeatureRecord) => {
      const x = key(a);
      const y = key(b);
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      return sign * compare(x, y);
    };
  };
  const byNumber = (a: number, b: number) => a - b;
  const byCreated = keyed((f) => f.createdAt.getTime(), byNumber);
  const primary = (() => {
    switch (sortBy) {
      case 'name':
        return keyed((f) => f.name, compareText);
      case 'type':
        return keyed((f) => f.type, compareText);
      case 'project':
        return keyed((f) => f.project, compareText);
      case 'stale':
        return keyed((f) => (f.stale ? 1 : 0), byNumber);
      case 'lastSeenAt':
        return keyed((f) => f.lastSeenAt?.getTime() ?? null, byNumber);
      case 'lifecycle':
        return keyed((f) => {
          const stage = stageOf(f);
          return stage === null ? null : STAGES.indexOf(stage as (typeof STAGES)[number]);
        }, byNumber);
      default:
        return byCreated;
    }
  })();
  return (a: FeatureRecord, b: FeatureRecord) =>
    primary(a, b) || byCreated(a, b) || sign * compareText(a.name, b.name);
}

/**
 * Unleash's feature search, from the read model, over every project the caller sees (private
 * projects they are not in are left out): every feature is tested in memory (no SQL but the
 * caller's favorites, the feature types' lifetimes when `state` is asked, and the creators of the
 * page), sorted, and one page of it described.
 */
export async function searchFeatures(
  ctx: AppContext,
  identity: Identity,
  visible: ProjectVisibility,
  q: Query,
) {
  const model = ctx.model;
  const favorites = await favoriteFeaturesOf(ctx.db, identity);
  const filters = await buildSearch(ctx, q, favorites);
  if (visible.hidden.size > 0) filters.unshift((f) => visible.sees(f.project));
  const found: FeatureRecord[] = [];
  for (const f of model.allFeatures()) if (filters.every((test) => test(f))) found.push(f);
  const compare = comparator(q.sortBy, q.sortOrder);
  found.sort(
    q.favoritesFirst
      ? (a, b) => Number(favorites.has(b.name)) - Number(favorites.has(a.name)) || compare(a, b)
      : compare,
  );
  const page = found.slice(q.offset, q.offset + q.limit);
  const creators = await describeCreators(ctx, page);
  return {
    features: page.map((f) => describeResult(model, f, favorites.has(f.name), creators)),
    total: found.length,
  };
}

type Creator = typeof TOKEN_CREATOR;

async function describeCreators(ctx: AppContext, page: FeatureRecord[]): Promise<Map<number, Creator>> {
  const ids = [...new Set(page.map((f) => f.createdByUserId).filter((id): id is number => id !== null))];
  const users = await findUsers(ctx.db, ids);
  return new Map(
    users.map((u) => [
      u.id,
      {
        id: u.id,
        name: u.name ?? u.username ?? u.email ?? String(u.id),
        imageUrl: u.imageUrl ?? gravatar(u.email) ?? '',
      },
    ]),
  );
}

function describeResult(
  model: FeatureModel,
  f: FeatureRecord,
  favorite: boolean,
  creators: Map<number, Creator>,
) {
  const parent = f.dependencies.length > 0;
  const deleted = { id: f.createdByUserId ?? 0, name: 'deleted user', imageUrl: '' };
  return {
    name: f.name,
    description: f.description,
    type: f.type,
    project: f.project,
    stale: f.stale,
    favorite,
    impressionData: f.impressionData,
    createdAt: f.createdAt,
    lastSeenAt: f.lastSeenAt,
    archivedAt: f.archivedAt,
    dependencyType: parent
      ? ('child' as const)
      : model.children(f.name).length > 0
        ? ('parent' as const)
        : null,
    environments: f.environments.map((e) => ({
      ...describeListEnvironment(model, f, e),
      enabledStrategies: enabledStrategiesIn(f.strategies, e.name),
    })),
    segments: segmentNames(model, f),
    ...(f.tags.length > 0 ? { tags: f.tags } : {}),
    ...describeLifecycle(f.stages),
    createdBy: f.createdByUserId === null ? TOKEN_CREATOR : (creators.get(f.createdByUserId) ?? deleted),
  };
}
