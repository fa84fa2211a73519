import jsonpatch, { type Operation } from 'fast-json-patch';
import { NoAccessError, ValidationError } from '../../http/errors.js';

/** The feature as E16 patches it: its metadata, with dates as ISO strings. */
export interface FeatureDocument {
  name: string;
  description: string | null;
  type: string;
  project: string;
  stale: boolean;
  impressionData: boolean;
  archived: boolean;
  archivedAt: string | null;
  createdAt: string;
  lastSeenAt: string | null;
}

/** What a patch may change; every other member of the document is read-only and ignored. */
export interface PatchedMetadata {
  description: string | null;
  type: string;
  stale: boolean;
  impressionData: boolean;
  archived: boolean;
}

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'copy' | 'move' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

const MAX_DESCRIPTION = 1000;
const MAX_TYPE = 100;

const PATCH_ERRORS: Record<string, string> = {
  TEST_OPERATION_FAILED: 'the test failed: the value at the path is not the one given',
  OPERATION_PATH_UNRESOLVABLE: 'the path does not exist in the feature',
  OPERATION_FROM_UNRESOLVABLE: 'the `from` path does not exist in the feature',
  OPERATION_PATH_CANNOT_ADD: 'nothing can be added at that path',
  OPERATION_PATH_INVALID: 'the path must be a JSON pointer such as "/description"',
  OPERATION_FROM_REQUIRED: '`from` is required for move and copy',
  OPERATION_VALUE_REQUIRED: '`value` is required for add, replace and test',
  OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED: '`value` cannot contain undefined',
  OPERATION_PATH_ILLEGAL_ARRAY_INDEX: 'the path has an illegal array index',
  OPERATION_VALUE_OUT_OF_BOUNDS: 'the array index is out of bounds',
};

/**
 * Changing variants through E16 is refused outright (403), whatever else the patch does: they are
 * set per environment through their own endpoints.
 */
export function assertNoVariantPaths(operations: PatchOperation[]): void {
  const index = operations.findIndex((o) => o.path.includes('/variants'));
  if (index >= 0) {
    throw new NoAccessError(
      `Operation ${index} touches "${operations[index]!.path}": variants cannot be changed by patching the feature; ` +
        'use PUT or PATCH on /api/admin/projects/:projectId/features/:featureName/environments/:environment/variants.',
    );
  }
}

/** The patch was refused because a `test` operation did not hold (400, as the spec says). */
export class FailedTestError extends ValidationError {}

function patchError(error: unknown): ValidationError {
  const e = error as { name?: string; index?: number; operation?: PatchOperation; message?: string };
  const why = (e.name && PATCH_ERRORS[e.name]) ?? e.message ?? 'the operation cannot be applied';
  if (e.index === undefined || !e.operation)
    return new ValidationError(`The patch cannot be applied: ${why}.`);
  const where = `Operation ${e.index} (${e.operation.op} "${e.operation.path}")`;
  const Refusal = e.name === 'TEST_OPERATION_FAILED' ? FailedTestError : ValidationError;
  return new Refusal(`${where} cannot be applied: ${why}.`, [
    { path: `${e.index}`, message: `${where}: ${why}.` },
  ]);
}

function invalid(path: string, message: string): ValidationError {
  return new ValidationError(`After the patch, ${message}`, [{ path, message }]);
}

/**
 * Applies the operations in order (RFC 6902) to a copy of the document and checks the result.
 * Removed members take their defaults, as if the feature were created without them.
 */
export function applyFeaturePatch(document: FeatureDocument, operations: PatchOperation[]): PatchedMetadata {
  let result: unknown;
  try {
    result = jsonpatch.applyPatch(
      jsonpatch.deepClone(document),
      jsonpatch.deepClone(operations) as Operation[],
      true,
      true,
    ).newDocument;
  } catch (error) {
    if (error instanceof jsonpatch.JsonPatchError) throw patchError(error);
    throw error;
  }
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new ValidationError('After the patch, the feature must still be an object.');
  }
  const r = result as Record<string, unknown>;
  const description = r.description === undefined || r.description === '' ? null : r.description;
  if (description !== null && typeof description !== 'string') {
    throw invalid('description', '`description` must be a string or null.');
  }
  if (typeof description === 'string' && description.length > MAX_DESCRIPTION) {
    throw invalid('description', `\`description\` must be at most ${MAX_DESCRIPTION} characters.`);
  }
  const type = r.type === undefined ? 'release' : r.type;
  if (typeof type !== 'string' || type.length < 1 || type.length > MAX_TYPE) {
    throw invalid('type', `\`type\` must be a string of 1 to ${MAX_TYPE} characters.`);
  }
  const booleans = { stale: r.stale, impressionData: r.impressionData, archived: r.archived };
  for (const [name, value] of Object.entries(booleans)) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw invalid(name, `\`${name}\` must be a boolean (true or false).`);
    }
  }
  return {
    description,
    type,
    stale: r.stale === true,
    impressionData: r.impressionData === true,
    archived: r.archived === true,
  };
}
