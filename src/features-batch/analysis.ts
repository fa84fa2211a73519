import { isDeepStrictEqual } from 'node:util';
import type { ContextFields } from '../constraints/rules.js';
import { allContextFields, rulesOf } from '../context/lookup.js';
import { contextFieldValues, type NewContextField } from '../context/service.js';
import type { Queryable } from '../db/database.js';
import { getEnvironment } from '../environments/service.js';
import type { EventInput } from '../events/service.js';
import type {
  DependencyRow,
  FeatureEnvironmentRow,
  FeatureRow,
  FeatureTagRow,
  StrategyRow,
} from '../features/import/service.js';
import { featureStates } from '../features/import/service.js';
import { attempt } from '../http/check.js';
import { type ErrorDetail, NotFoundError } from '../http/errors.js';
import type { Permission } from '../http/permissions.js';
import { getProject, projectEnvironmentNames } from '../projects/service.js';
import type { FeatureRecord } from '../read-model/queries.js';
import { allSegments } from '../segments/list.js';
import type { Segment } from '../segments/types.js';
import { allStrategyDefinitions } from '../strategies/service.js';
import type { StrategyDefinition } from '../strategies/types.js';
import { allTagTypes } from '../tag-types/service.js';
import type { TagType } from '../tag-types/types.js';
import { type ImportData, placed } from './data.js';

/** One finding of a validation, as Unleash words its lists: what, and which items. */
export interface Finding {
  message: string;
  affectedItems: string[];
}

/** Everything an import writes, and the audit events of it. */
export interface Changes {
  contextFields: NewContextField[];
  tagTypes: TagType[];
  features: FeatureRow[];
  environments: FeatureEnvironmentRow[];
  /** Features whose strategies in the environment are replaced by `strategies`. */
  replaced: string[];
  strategies: StrategyRow[];
  strategySegments: Map<string, number[]>;
  /** Features whose tags become exactly those of `tags`. */
  retagged: string[];
  tags: FeatureTagRow[];
  /** Imported features whose dependencies go. */
  clearedDependencies: string[];
  /** Imported features' new parents. */
  dependencies: DependencyRow[];
  events: EventInput[];
}

/** What a validation answers and an import acts on. */
export interface Analysis {
  errors: Finding[];
  warnings: Finding[];
  /** Permissions the change needs, each in the project (and environment, where it applies). */
  needs: Set<Permission>;
  changes: Changes;
}

/** What the analysis reads of the target instance. */
export interface Instance {
  project: string;
  environment: string;
  projectEnvironments: string[];
  defaultStickiness: string;
  features: Map<string, FeatureRecord>;
  strategyTypes: Map<string, StrategyDefinition>;
  segments: Map<string, Segment>;
  tagTypes: Map<string, TagType>;
  contextRules: ContextFields;
  contextFields: Map<string, { legalValues: string[] }>;
}

/**
 * The project and environment of an import (404 when either is unknown, or the environment is
 * not the project's), and what the data will meet there. With `lock`, the features it names are
 * locked for the change that follows.
 */
export async function readInstance(
  db: Queryable,
  body: { project: string; environment: string },
  data: ImportData,
  lock: boolean,
): Promise<Instance> {
  const project = await getProject(db, body.project);
  await getEnvironment(db, body.environment);
  const projectEnvironments = await projectEnvironmentNames(db, body.project);
  if (!projectEnvironments.includes(body.environment)) {
    throw new NotFoundError(
      `The project "${body.project}" does not have the environment "${body.environment}": add it to the project first.`,
    );
  }
  const names = [...new Set(data.features.map((f) => f.name))];
  const features = await featureStates(db, names, lock ? { lock: 'update' } : {});
  const contextFields = await allContextFields(db);
  return {
    project: body.project,
    environment: body.environment,
    projectEnvironments,
    defaultStickiness: project.defaultStickiness,
    features: new Map(features.map((f) => [f.name, f])),
    strategyTypes: new Map((await allStrategyDefinitions(db)).map((d) => [d.name, d])),
    segments: new Map((await allSegments(db)).map((s) => [s.name, s])),
    tagTypes: new Map((await allTagTypes(db)).map((t) => [t.name, t])),
    contextRules: rulesOf(contextFields, body.project),
    contextFields: new Map(
      contextFields.map((c) => [c.name, { legalValues: c.legalValues.map((l) => l.value) }]),
    ),
  };
}

/** Whether two values are the same once written as JSON (dates as text, no undefined). */
export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));
}

/** Collects findings by message, each affected item once, in the order found. */
export class Findings {
  private readonly byMessage = new Map<string, Set<string>>();

  add(message: string, item: string): void {
    const items = this.byMessage.get(message) ?? new Set();
    items.add(item);
    this.byMessage.set(message, items);
  }

  /** Problems of items, worded by the rules of their endpoints. */
  addProblems(problems: ErrorDetail[]): void {
    for (const p of placed(problems)) this.add(BROKEN_RULES, p.path ? `${p.path}: ${p.message}` : p.message);
  }

  list(): Finding[] {
    return [...this.byMessage].map(([message, items]) => ({ message, affectedItems: [...items] }));
  }
}

export const BROKEN_RULES = 'These items break the rules of the endpoints that make them by hand:';

/**
 * Context fields the data brings: new ones are created (checked as the create endpoint checks
 * them); ones that exist must not bring legal values they do not have. Answers the constraint
 * rules as they will be once the import is in.
 */
export function analyseContextFields(
  data: ImportData,
  instance: Instance,
  errors: Findings,
  changes: Changes,
  needs: Set<Permission>,
): ContextFields {
  const rules = new Map(instance.contextRules);
  for (const field of data.contextFields) {
    const existing = instance.contextFields.get(field.name);
    const legal = (field.legalValues ?? []).map((l) => l.value);
    if (existing) {
      if (legal.some((value) => !existing.legalValues.includes(value))) {
        errors.add(
          'These context fields exist here without some of the legal values the data gives them:',
          field.name,
        );
      }
      continue;
    }
    const problems: ErrorDetail[] = [];
    attempt(problems, `${field.at}.legalValues`, () => contextFieldValues(field, `${field.at}.legalValues`));
    errors.addProblems(problems);
    if (changes.contextFields.some((c) => c.name === field.name)) continue;
    // A field of a project where it was exported becomes one of the project imported into.
    changes.contextFields.push({ ...field, project: field.project === undefined ? null : instance.project });
    rules.set(field.name, { legalValues: legal });
    needs.add('CREATE_CONTEXT_FIELD');
  }
  return rules;
}
