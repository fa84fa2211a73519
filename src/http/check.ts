import { createHash } from 'node:crypto';
import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { type ErrorDetail, ValidationError, validationDetails } from './errors.js';
import { precompiledChecks } from './precompiled-checks.js';
import { lazily } from './validation.js';

// The same settings as request bodies (see validation.ts): no coercion, every error reported, our
// own schemas taken as written. The build compiles the checks with them too.
export const CHECK_OPTIONS: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: false,
  strict: false,
  validateSchema: false,
};
const ajv = new Ajv(CHECK_OPTIONS);
addFormats.default(ajv);

const schemas = new Set<TSchema>();
/** Every schema a check was made of, for the build to compile. */
export const checkedSchemas: ReadonlySet<TSchema> = schemas;

/** What tells a schema's compiled check apart: a hash of its JSON. */
export function checkKeyOf(schema: TSchema): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
}

/**
 * A checker for values that did not come straight from a request body's schema (a list after a
 * JSON Patch, items handed to a shared rule): the problems as `details`, with paths under `path`.
 * Compiled by the build, or on its first use: the state document's checks took 65 ms to compile,
 * in the first import of every process.
 */
export function compileCheck<T extends TSchema>(schema: T) {
  schemas.add(schema);
  const validate = lazily(
    () => (precompiledChecks.size > 0 && precompiledChecks.get(checkKeyOf(schema))) || ajv.compile(schema),
  );
  return {
    problems(value: unknown, path: string): ErrorDetail[] {
      if (validate(value)) return [];
      return validationDetails(validate.errors ?? [], path || undefined);
    },
    is(value: unknown): value is Static<T> {
      return validate(value);
    },
  };
}

/** Throws one ValidationError for all the problems found, or does nothing when there are none. */
export function throwIfProblems(problems: ErrorDetail[]): void {
  if (problems.length === 0) return;
  throw new ValidationError(
    problems.length === 1
      ? problems[0]!.message
      : 'The request is not valid: see `details` for each problem.',
    problems,
  );
}

/** `features.3.constraints.0.operator` → `features[3].constraints[0].operator`: where an item sits in a list. */
export function itemPath(path: string): string {
  return path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

/**
 * Runs one rule of an endpoint on a part of a larger document, turning its refusal into problems
 * of the part at `base` (details worded relative to the rule's own input are placed under it), so
 * every problem of the document can be listed at once. Answers the rule's result, or undefined.
 */
export function attempt<T>(problems: ErrorDetail[], base: string, rule: () => T): T | undefined {
  try {
    return rule();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const details = error.details?.length ? error.details : [{ path: base, message: error.message }];
    for (const d of details) {
      const inside = d.path === undefined || d.path === base || d.path.startsWith(`${base}.`);
      problems.push({ path: inside ? (d.path ?? base) : `${base}.${d.path}`, message: d.message });
    }
    return undefined;
  }
}
