import semver from 'semver';
import { compileCheck, throwIfProblems } from '../http/check.js';
import type { ErrorDetail } from '../http/errors.js';
import {
  ConstraintSchema,
  DATE_OPERATORS,
  MAX_CONSTRAINTS,
  MULTI_VALUE_OPERATORS,
  NUMBER_OPERATORS,
  type Operator,
} from './schemas.js';

/** A constraint as stored and served: defaults filled in, `value` kept when it was sent. */
export interface Constraint {
  contextName: string;
  operator: Operator;
  values: string[];
  value?: string;
  inverted: boolean;
  caseInsensitive: boolean;
}

/**
 * What the rules need to know of each context field: its legal values (empty: anything goes), and
 * the project it belongs to when the constraints checked are not that project's (then it is refused).
 */
export type ContextFields = ReadonlyMap<string, { legalValues: readonly string[]; otherProject?: string }>;

export interface ConstraintOptions {
  /** Where the list sits in the request, for the error details; '' for one bare constraint (E10). */
  path?: string;
  /** E10 refuses a context field that does not exist; strategies and segments accept one. */
  requireKnownContext?: boolean;
}

const multiValue = new Set<string>(MULTI_VALUE_OPERATORS);
const numeric = new Set<string>(NUMBER_OPERATORS);
const dates = new Set<string>(DATE_OPERATORS);

/** A decimal number as SDKs parse it: `5`, `-5.5`, `0.25`; no exponent, no blanks. */
export function isDecimalNumber(text: string): boolean {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text);
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-](\d{2}):?(\d{2}))?)?$/;

/** An ISO 8601 date-time, or a plain date, whose every part is in range (no 30 February). */
export function isIsoDateTime(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59)) return false;
  if (m[6] !== undefined && Number(m[6]) > 59) return false;
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return false;
  return !Number.isNaN(Date.parse(text));
}

/** `MAJOR.MINOR.PATCH[-pre][+build]` exactly: no leading `v`, no blanks, no missing parts. */
export function isStrictSemver(text: string): boolean {
  return /^\d/.test(text) && text.trim() === text && semver.valid(text) !== null;
}

function singleValueProblem(operator: string, value: string): string | null {
  if (numeric.has(operator) && !isDecimalNumber(value)) {
    return `The operator ${operator} compares numbers: "${value}" is not one. Send a decimal number such as "5" or "-2.5".`;
  }
  if (dates.has(operator) && !isIsoDateTime(value)) {
    return `The operator ${operator} compares dates: "${value}" is not an ISO 8601 date-time. Send one such as "2024-01-01T00:00:00Z".`;
  }
  if (operator.startsWith('SEMVER_') && !isStrictSemver(value)) {
    return `The operator ${operator} compares versions: "${value}" is not a semantic version. Send MAJOR.MINOR.PATCH, such as "1.2.3" or "1.2.3-beta.1", without a leading "v".`;
  }
  return null;
}

const itemCheck = compileCheck(ConstraintSchema);

function constraintProblems(
  item: unknown,
  path: string,
  fields: ContextFields,
  requireKnownContext: boolean,
): ErrorDetail[] {
  const shape = itemCheck.problems(item, path);
  if (shape.length > 0 || !itemCheck.is(item)) return shape;
  const at = (field: string) => (path ? `${path}.${field}` : field);
  const { contextName, operator, values, value } = item;
  const problems: ErrorDetail[] = [];

  if (multiValue.has(operator)) {
    if (!values || values.length === 0) {
      problems.push({
        path: at('values'),
        message: `The operator ${operator} needs \`values\`: a list of at least one string.`,
      });
    }
  } else if (value === undefined) {
    problems.push({
      path: at('value'),
      message: `The operator ${operator} compares against one value: send it as \`value\`, a string.`,
    });
  } else {
    const problem = singleValueProblem(operator, value);
    if (problem) problems.push({ path: at('value'), message: problem });
  }

  const field = fields.get(contextName);
  if (!field) {
    if (requireKnownContext) {
      problems.push({
        path: at('contextName'),
        message: `There is no context field named "${contextName}". Create it first (POST /api/admin/context) or use one of: ${[...fields.keys()].join(', ')}.`,
      });
    }
    return problems;
  }
  if (field.otherProject !== undefined) {
    problems.push({
      path: at('contextName'),
      // The other project is not named: it may be a private one the caller does not see.
      message: `The context field "${contextName}" belongs to another project: only the constraints of that project's features and segments may use it.`,
    });
    return problems;
  }
  if (field.legalValues.length === 0 || problems.length > 0) return problems;
  const legal = new Set(field.legalValues);
  const sent = multiValue.has(operator) ? (values ?? []) : [value!];
  const illegal = sent.filter((v) => !legal.has(v));
  if (illegal.length > 0) {
    problems.push({
      path: at(multiValue.has(operator) ? 'values' : 'value'),
      message: `${illegal.map((v) => `"${v}"`).join(', ')} ${illegal.length === 1 ? 'is not a legal value' : 'are not legal values'} of the context field "${contextName}"; its legal values are: ${field.legalValues.join(', ')}.`,
    });
  }
  return problems;
}

/**
 * The one rule for constraints, wherever they are stored or checked (E10, strategies, segments):
 * the shape (no other properties, a known operator, booleans, strings), the value each operator
 * needs, and the context field's legal values. Returns the constraints with their defaults, or
 * throws a ValidationError listing every problem.
 */
export function validateConstraints(
  input: unknown,
  fields: ContextFields,
  options: ConstraintOptions = {},
): Constraint[] {
  const path = options.path ?? 'constraints';
  if (!Array.isArray(input)) {
    throwIfProblems([{ path, message: `The \`${path}\` property must be a list of constraints.` }]);
  }
  const list = input as unknown[];
  if (list.length > MAX_CONSTRAINTS) {
    throwIfProblems([
      { path, message: `A list holds at most ${MAX_CONSTRAINTS} constraints; ${list.length} were sent.` },
    ]);
  }
  const itemPath = (i: number) => (path === '' ? '' : `${path}.${i}`);
  throwIfProblems(
    list.flatMap((item, i) => constraintProblems(item, itemPath(i), fields, !!options.requireKnownContext)),
  );
  return (list as Constraint[]).map((c) => ({
    contextName: c.contextName,
    operator: c.operator,
    values: c.values ?? [],
    ...(c.value !== undefined ? { value: c.value } : {}),
    inverted: c.inverted ?? false,
    caseInsensitive: c.caseInsensitive ?? false,
  }));
}
