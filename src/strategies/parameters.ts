import { type ErrorDetail, ValidationError } from '../http/errors.js';
import type { StrategyDefinition } from './types.js';

export interface ParameterDefaults {
  /** The feature's name: flags sharing a group id reach the same users. */
  groupId: string;
  /** The project's default stickiness (`default` unless the project says otherwise). */
  stickiness: string;
}

const PERCENTAGE = /^\d+(\.\d+)?$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Why a value does not fit its declared type, or null when it does: what an SDK's custom strategy
 * will read — a plain decimal for numbers, 0 to 100 for percentages, `true`/`false` for booleans.
 * Strings and comma-separated lists take any text.
 */
function typeProblem(type: string, value: string): string | null {
  switch (type) {
    case 'number':
      return NUMBER.test(value) ? null : `"${value}" is not a number: send digits, such as "42" or "-1.5".`;
    case 'percentage':
      return PERCENTAGE.test(value) && Number(value) <= 100
        ? null
        : `"${value}" is not a percentage: send a number from 0 to 100, such as "50".`;
    case 'boolean':
      return value === 'true' || value === 'false'
        ? null
        : `"${value}" is not a boolean: send "true" or "false".`;
    default:
      return null;
  }
}

/**
 * A custom strategy type's parameters as its definition declares them: required ones present and
 * not empty, typed ones well formed. Parameters it does not declare pass as they are.
 */
function checkDeclaredParameters(definition: StrategyDefinition, parameters: Record<string, string>): void {
  const problems: ErrorDetail[] = [];
  for (const declared of definition.parameters) {
    const path = `parameters.${declared.name}`;
    const value = parameters[declared.name];
    if (value === undefined || value.trim() === '') {
      if (declared.required) {
        problems.push({ path, message: `The parameter "${declared.name}" is required: give it a value.` });
      }
      continue;
    }
    const problem = typeProblem(declared.type, value);
    if (problem) problems.push({ path, message: `The parameter "${declared.name}": ${problem}` });
  }
  if (problems.length === 0) return;
  throw new ValidationError(
    `The parameters do not fit the strategy type "${definition.name}": ${problems.map((p) => p.message).join(' ')}`,
    problems,
  );
}

/**
 * Parameters as stored: every value a string. `flexibleRollout` gets the defaults SDKs rely on —
 * rollout 100, the project's stickiness, the feature's name as group id — for any that are
 * missing or empty, and its rollout must be a percentage. With the `definition` of a custom type,
 * its declared parameters are checked; built-in types keep their own rules (the SDKs' defaults).
 */
export function normalizeParameters(
  strategyType: string,
  input: Readonly<Record<string, string | number | boolean>> | undefined,
  defaults: ParameterDefaults,
  definition?: StrategyDefinition,
): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(input ?? {})) parameters[name] = String(value);
  if (definition && !definition.builtIn) checkDeclaredParameters(definition, parameters);
  if (strategyType !== 'flexibleRollout') return parameters;

  const rollout = parameters.rollout || '100';
  if (!PERCENTAGE.test(rollout) || Number(rollout) > 100) {
    throw new ValidationError(
      `The rollout "${rollout}" is not a percentage: send a number from 0 to 100, such as "50".`,
      [{ path: 'parameters.rollout', message: 'Must be a number from 0 to 100.' }],
    );
  }
  return {
    ...parameters,
    rollout,
    stickiness: parameters.stickiness || defaults.stickiness,
    groupId: parameters.groupId || defaults.groupId,
  };
}
