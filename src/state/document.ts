import { setTimeout as nextRound } from 'node:timers/promises';
import type { Static, TSchema } from '@sinclair/typebox';
import { compileCheck, itemPath } from '../http/check.js';
import { type ErrorDetail, ValidationError } from '../http/errors.js';
import {
  EnvironmentItem,
  FeatureEnvironmentItem,
  FeatureItem,
  FeatureTagItem,
  ProjectItem,
  SegmentItem,
  STATE_ARRAYS,
  type StateArray,
  StrategyItem,
  StrategySegmentItem,
  StrategyTypeItem,
  TagItem,
  TagTypeItem,
} from './schemas.js';

/** Where an item sits in the document, for the problems found in it: `featureStrategies.3`. */
export type At = string;

type Item<T extends TSchema> = Static<T> & { at: At };

/** A state document whose every element has the shape its array asks for, each with where it sits. */
export interface StateItems {
  environments: Item<typeof EnvironmentItem>[];
  strategies: Item<typeof StrategyTypeItem>[];
  projects: Item<typeof ProjectItem>[];
  tagTypes: Item<typeof TagTypeItem>[];
  tags: Item<typeof TagItem>[];
  segments: Item<typeof SegmentItem>[];
  features: Item<typeof FeatureItem>[];
  featureEnvironments: (Item<typeof FeatureEnvironmentItem> & { environment: string })[];
  featureStrategies: (Item<typeof StrategyItem> & { id: string; name: string; sortOrder: number })[];
  featureStrategySegments: Item<typeof StrategySegmentItem>[];
  featureTags: Item<typeof FeatureTagItem>[];
}

const CHECKS: Record<StateArray, ReturnType<typeof compileCheck>> = {
  environments: compileCheck(EnvironmentItem),
  strategies: compileCheck(StrategyTypeItem),
  projects: compileCheck(ProjectItem),
  tagTypes: compileCheck(TagTypeItem),
  tags: compileCheck(TagItem),
  segments: compileCheck(SegmentItem),
  features: compileCheck(FeatureItem),
  featureEnvironments: compileCheck(FeatureEnvironmentItem),
  featureStrategies: compileCheck(StrategyItem),
  featureStrategySegments: compileCheck(StrategySegmentItem),
  featureTags: compileCheck(FeatureTagItem),
};

/** At most this many problems are listed: enough to fix a document, not a second copy of it. */
const MAX_DETAILS = 100;

/** The one 400 of an import: every problem, each naming its item. */
export function refuse(problems: ErrorDetail[]): never {
  const details = problems.slice(0, MAX_DETAILS).map((p) => {
    const path = p.path === undefined ? undefined : itemPath(p.path);
    return { path, message: p.path && path ? p.message.split(p.path).join(path) : p.message };
  });
  const more =
    problems.length > MAX_DETAILS ? ` (the first ${MAX_DETAILS} of ${problems.length} are listed)` : '';
  throw new ValidationError(
    problems.length === 1
      ? `The state cannot be imported: ${details[0]!.message}`
      : `The state cannot be imported: see \`details\` for each of its ${problems.length} problems${more}.`,
    details,
  );
}

/** Names that must be unique within one array: the second of two is a problem. */
function duplicates<T extends { at: At }>(items: T[], key: (item: T) => string, what: string): ErrorDetail[] {
  const seen = new Map<string, At>();
  const problems: ErrorDetail[] = [];
  for (const item of items) {
    const k = key(item);
    const first = seen.get(k);
    if (first !== undefined) {
      problems.push({
        path: item.at,
        message: `${what} "${k}" is listed twice (also at ${itemPath(first)}).`,
      });
    } else seen.set(k, item.at);
  }
  return problems;
}

/**
 * Every element checked against its array's rules, or a 400 listing all that fail. Strategies get
 * their defaults here: the environment's list order gives the position when none is sent, and an
 * id made of the feature, environment and position when none is sent (so importing the same file
 * again finds them instead of adding them twice).
 */
export async function readItems(document: Partial<Record<StateArray, unknown[]>>): Promise<StateItems> {
  const problems: ErrorDetail[] = [];
  const items = {} as Record<StateArray, { at: At }[]>;
  for (const name of STATE_ARRAYS) {
    // Thousands of items take a while to check: the event loop gets a round between two arrays.
    await nextRound(0);
    items[name] = [];
    (document[name] ?? []).forEach((element, i) => {
      const at = `${name}.${i}`;
      const found = CHECKS[name].problems(element, at);
      if (found.length > 0) problems.push(...found);
      else items[name].push({ ...(element as object), at });
    });
  }
  const state = items as unknown as StateItems;
  const positions = new Map<string, number>();
  state.featureStrategies = state.featureStrategies.map((s) => {
    const name = s.name ?? s.strategyName;
    if (name === undefined)
      problems.push({
        path: `${s.at}.name`,
        message: 'The `name` property (the strategy type) is required.',
      });
    const group = `${s.featureName}:${s.environment}`;
    const position = positions.get(group) ?? 0;
    positions.set(group, position + 1);
    return { ...s, name: name ?? '', id: s.id ?? `${group}:${position}`, sortOrder: s.sortOrder ?? position };
  });
  state.featureEnvironments = state.featureEnvironments.map((e) => {
    const environment = e.environment ?? e.name;
    if (environment === undefined) {
      problems.push({ path: `${e.at}.environment`, message: 'The `environment` property is required.' });
    }
    return { ...e, environment: environment ?? '' };
  });
  problems.push(
    ...duplicates(state.environments, (e) => e.name, 'The environment'),
    ...duplicates(state.strategies, (s) => s.name, 'The strategy type'),
    ...duplicates(state.projects, (p) => p.id, 'The project'),
    ...duplicates(state.tagTypes, (t) => t.name, 'The tag type'),
    ...duplicates(state.segments, (s) => String(s.id), 'The segment id'),
    ...duplicates(state.segments, (s) => s.name, 'The segment name'),
    ...duplicates(state.features, (f) => f.name, 'The feature'),
    ...duplicates(
      state.featureEnvironments,
      (e) => `${e.featureName}:${e.environment}`,
      'The feature environment',
    ),
    ...duplicates(state.featureStrategies, (s) => s.id, 'The strategy id'),
  );
  if (problems.length > 0) refuse(problems);
  return state;
}
