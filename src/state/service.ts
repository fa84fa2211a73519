import { setTimeout as nextRound } from 'node:timers/promises';
import type { AppContext } from '../app-context.js';
import { allContextFields, rulesOf } from '../context/lookup.js';
import type { Transaction } from '../db/database.js';
import { writeEnvironments } from '../environments/service.js';
import { type EventInput, recordEvent } from '../events/service.js';
import { dropAllFeatures, linkEnvironmentsToProjects, writeFeatures } from '../features/import/service.js';
import type { Actor } from '../http/identity.js';
import { dropProjectsExcept, writeProjects } from '../projects/service.js';
import { dropAllSegments, writeSegments } from '../segments/service.js';
import { dropCustomStrategyDefinitions, writeCustomStrategyDefinitions } from '../strategies/service.js';
import { writeTagTypes } from '../tag-types/service.js';
import { dropAllTags, ensureTags } from '../tags/service.js';
import { discardProjectApiTokens } from '../tokens/service.js';
import { readItems, refuse, type StateItems } from './document.js';
import { readExisting } from './existing.js';
import type { ImportOptions, Plan } from './plan.js';
import { planConfiguration } from './plan-config.js';
import { planFeatures } from './plan-features.js';
import type { StateArray } from './schemas.js';
import { lockImports } from './store.js';

export type StateDocument = { version: number } & Partial<Record<StateArray, unknown[]>>;

/** The project every instance keeps: a drop never removes it. */
const DEFAULT_PROJECT = 'default';

/**
 * `drop`: what the document replaces goes first — every feature (archived ones too), segment, tag
 * and custom strategy type, and every project the document does not list (but `default`), with its
 * API tokens. Projects it lists stay, with their access grants, and are overwritten. Environments
 * and tag types stay.
 */
async function drop(tx: Transaction, actor: Actor, items: StateItems): Promise<void> {
  const events: EventInput[] = [];
  const features = await dropAllFeatures(tx);
  if (features.length > 0) events.push({ type: 'drop-features', data: { features } });
  const segments = await dropAllSegments(tx);
  if (segments.length > 0) events.push({ type: 'drop-segments', data: { segments } });
  const tags = await dropAllTags(tx);
  if (tags > 0) events.push({ type: 'drop-tags', data: { tags } });
  const strategies = await dropCustomStrategyDefinitions(tx);
  if (strategies.length > 0) events.push({ type: 'drop-strategies', data: { strategies } });
  const projects = await dropProjectsExcept(tx, [DEFAULT_PROJECT, ...items.projects.map((p) => p.id)]);
  if (projects.length > 0) events.push({ type: 'drop-projects', data: { projects } });
  for (const event of events) recordEvent(tx, actor, event);
  // As when a project is deleted by hand: its tokens go too, or leave a token's list.
  for (const project of projects) await discardProjectApiTokens(tx, actor, project);
}

/** Every write of the plan, each table in one statement, in the order the references need. */
async function write(tx: Transaction, plan: Plan, actor: Actor): Promise<void> {
  await writeEnvironments(tx, plan.environments);
  await writeCustomStrategyDefinitions(tx, plan.strategyTypes);
  const created = await writeProjects(tx, plan.projects);
  await linkEnvironmentsToProjects(tx, plan.links, new Set(created));
  await writeTagTypes(tx, plan.tagTypes);
  await ensureTags(tx, plan.tags);
  await writeSegments(tx, plan.segments);
  await writeFeatures(tx, plan.features, actor);
}

/**
 * E5: the document in one transaction — all of it, or (400, naming every offending item) none of
 * it, the event log included. Each item is checked by the rules of the endpoint that makes it by
 * hand; items that already exist are left alone (`keep`) or overwritten where they differ.
 */
export async function importState(
  ctx: AppContext,
  actor: Actor,
  document: StateDocument,
  options: ImportOptions,
): Promise<void> {
  // A document of a thousand features takes a tenth of a second to parse, as long to check and
  // as long to plan: each step waits for the event loop's next round, so that the server goes on
  // answering other requests (/health, the SDKs) between them instead of after all of them.
  const items = await readItems(document);
  // What is left after a drop is replaced as the document says: `keep` no longer applies.
  const rules = options.drop ? { ...options, keep: false } : options;
  await ctx.db.transaction(async (tx) => {
    await nextRound(0);
    await lockImports(tx);
    if (options.drop) await drop(tx, actor, items);
    const existing = await readExisting(tx, items);
    // Read here rather than from the read model: an import at start-up runs before that is loaded.
    const contextRules = rulesOf(await allContextFields(tx));
    await nextRound(0);
    const { plan, known } = planConfiguration(items, existing, rules, contextRules);
    planFeatures(items, existing, rules, plan, known);
    if (plan.problems.length > 0) refuse(plan.problems);
    await nextRound(0);
    await write(tx, plan, actor);
    for (const event of plan.events) recordEvent(tx, actor, event);
  });
}
