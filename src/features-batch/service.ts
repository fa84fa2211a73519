import { setTimeout as nextRound } from 'node:timers/promises';
import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { writeNewContextFields } from '../context/service.js';
import type { Transaction } from '../db/database.js';
import { recordEvent } from '../events/service.js';
import { removeStrategiesIn, untagFeatures, writeFeatures } from '../features/import/service.js';
import { NoAccessError, ValidationError } from '../http/errors.js';
import { type Actor, actorOf, type Identity } from '../http/identity.js';
import { can, type Permission } from '../http/permissions.js';
import { assertSeesProject, type ProjectVisibility } from '../http/visibility.js';
import { writeTagTypes } from '../tag-types/service.js';
import { ensureTags } from '../tags/service.js';
import { analyse } from './analyse.js';
import type { Analysis, Changes } from './analysis.js';
import { readData } from './data.js';
import type { ImportBody } from './schemas.js';

type Body = Static<typeof ImportBody>;

/**
 * Every permission an import can need: holding one of them somewhere is what lets a caller send
 * an import of more than BODY_LIMIT, before its body says what it needs where.
 */
export const IMPORT_PERMISSIONS: readonly Permission[] = [
  'CREATE_CONTEXT_FIELD',
  'CREATE_FEATURE',
  'CREATE_FEATURE_STRATEGY',
  'CREATE_TAG_TYPE',
  'DELETE_FEATURE',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE',
  'UPDATE_FEATURE_DEPENDENCY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
];

/** Permissions that apply in one environment; the others in the project, or instance-wide. */
const PER_ENVIRONMENT = new Set<Permission>([
  'CREATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  'SKIP_CHANGE_REQUEST',
]);

/**
 * The permissions the import needs that the caller does not hold where it needs them; into an
 * environment that takes changes through change requests, also the one to skip them.
 */
function lacking(ctx: AppContext, identity: Identity, analysis: Analysis, body: Body): Permission[] {
  const needs = new Set(analysis.needs);
  if (ctx.model.project(body.project)?.changeRequestApprovals.has(body.environment)) {
    needs.add('SKIP_CHANGE_REQUEST');
  }
  return [...needs]
    .filter(
      (p) =>
        !can(identity, p, {
          project: body.project,
          ...(PER_ENVIRONMENT.has(p) ? { environment: body.environment } : {}),
        }),
    )
    .sort();
}

/**
 * The data read once the event loop has had a round after the body's parsing, and given another
 * after: a thousand features take a tenth of a second to parse and as long to read, and the server
 * goes on answering other requests (/health, the SDKs) between the two.
 */
async function readDataInTurn(body: Body): Promise<ReturnType<typeof readData>> {
  await nextRound(0);
  const data = readData(body.data);
  await nextRound(0);
  return data;
}

/**
 * What an import would do, checked before anything is written: errors, warnings, permissions
 * lacking. Into a project hidden from the caller: 404, as into one that does not exist.
 */
export async function validateImport(
  ctx: AppContext,
  identity: Identity,
  visible: ProjectVisibility,
  body: Body,
) {
  assertSeesProject(visible, body.project);
  const data = await readDataInTurn(body);
  const analysis = await ctx.db.transaction((tx) => analyse(tx, body, data, false, visible), {
    isolation: 'repeatable read',
    readOnly: true,
  });
  const missing = lacking(ctx, identity, analysis, body);
  return {
    errors: analysis.errors,
    warnings: analysis.warnings,
    permissions:
      missing.length > 0
        ? [{ message: 'You lack these permissions for this import:', affectedItems: missing }]
        : [],
  };
}

async function apply(tx: Transaction, actor: Actor, environment: string, changes: Changes): Promise<void> {
  await writeNewContextFields(tx, actor, changes.contextFields);
  await writeTagTypes(tx, changes.tagTypes);
  for (const data of changes.tagTypes) recordEvent(tx, actor, { type: 'tag-type-created', data });
  const tags = [
    ...new Map(changes.tags.map((t) => [`${t.type}:${t.value}`, { type: t.type, value: t.value }])).values(),
  ];
  for (const data of await ensureTags(tx, tags)) recordEvent(tx, actor, { type: 'tag-created', data });
  await removeStrategiesIn(tx, changes.replaced, environment);
  await untagFeatures(tx, changes.retagged);
  await writeFeatures(tx, changes, actor);
  for (const event of changes.events) recordEvent(tx, actor, event);
}

/**
 * Unleash's import into one project and environment, in one transaction: refused whole when the
 * project is hidden from the caller (404, as one that does not exist), when the caller lacks a
 * permission it needs (403) or when the validation finds errors (400, one detail each).
 */
export async function importFeatures(
  ctx: AppContext,
  identity: Identity,
  visible: ProjectVisibility,
  body: Body,
): Promise<void> {
  assertSeesProject(visible, body.project);
  const data = await readDataInTurn(body);
  await ctx.db.transaction(async (tx) => {
    const analysis = await analyse(tx, body, data, true, visible);
    await nextRound(0);
    const missing = lacking(ctx, identity, analysis, body);
    if (missing.length > 0) {
      throw new NoAccessError(
        `You need the ${missing.map((p) => `"${p}"`).join(', ')} permission${missing.length === 1 ? '' : 's'} in the project "${body.project}" (environment "${body.environment}") for this import.`,
      );
    }
    if (analysis.errors.length > 0) {
      throw new ValidationError(
        'The features cannot be imported: see `details` (POST /api/admin/features-batch/validate lists the same).',
        analysis.errors.map((e) => ({ path: 'data', message: `${e.message} ${e.affectedItems.join(', ')}` })),
      );
    }
    await apply(tx, actorOf(identity), body.environment, analysis.changes);
  });
}
