import { isDeepStrictEqual } from 'node:util';
import type { ContextFields } from '../constraints/rules.js';
import type { Environment } from '../environments/types.js';
import type { EventInput } from '../events/service.js';
import type { FeatureWrites } from '../features/import/service.js';
import type { ErrorDetail } from '../http/errors.js';
import type { ProjectRow } from '../projects/service.js';
import type { SegmentRow } from '../segments/service.js';
import type { StrategyDefinition } from '../strategies/types.js';
import type { TagType } from '../tag-types/types.js';
import type { Tag } from '../tags/types.js';

export interface ImportOptions {
  /** Leave items that exist as they are; otherwise overwrite those that differ. */
  keep: boolean;
  /** Everything in scope was removed first (the import runs on what is left). */
  drop: boolean;
}

/** Every write of an import, its audit events, and the problems that refuse it instead. */
export interface Plan {
  environments: Omit<Environment, 'protected'>[];
  strategyTypes: Omit<StrategyDefinition, 'builtIn'>[];
  projects: ProjectRow[];
  /** Environments to link to projects (links are added, never removed). */
  links: { project: string; environment: string }[];
  tagTypes: TagType[];
  tags: Tag[];
  segments: SegmentRow[];
  features: FeatureWrites;
  events: EventInput[];
  problems: ErrorDetail[];
}

/** The configuration as it will be after the import: what the features' rules are checked against. */
export interface Known {
  environments: Set<string>;
  /** Strategy types by name, as the import leaves them. */
  strategyTypes: Map<string, StrategyDefinition>;
  projects: Map<string, { defaultStickiness: string; environments: Set<string> }>;
  segments: Map<number, { name: string; project: string | null }>;
  tagTypes: Set<string>;
  contextRules: ContextFields;
}

/** Whether two values are the same once written as JSON (dates as text, no undefined). */
export function same(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));
}

/** What becomes of an item: created, overwritten (it differs and may be), or left as it is (null). */
export function decide<T>(before: T | undefined, after: T, keep: boolean): 'create' | 'overwrite' | null {
  if (before === undefined) return 'create';
  return keep || same(before, after) ? null : 'overwrite';
}
