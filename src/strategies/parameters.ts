import { ValidationError } from '../http/errors.js';

export interface ParameterDefaults {
  /** The feature's name: flags sharing a group id reach the same users. */
  groupId: string;
  /** The project's default stickiness (`default` unless the project says otherwise). */
  stickiness: string;
}

/**
 * Parameters as stored: every value a string. `flexibleRollout` gets the defaults SDKs rely on —
 * rollout 100, the project's stickiness, the feature's name as group id — for any that are
 * missing or empty, and its rollout must be a percentage.
 */
export function normalizeParameters(
  strategyType: string,
  input: Readonly<Record<string, string | number | boolean>> | undefined,
  defaults: ParameterDefaults,
): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(input ?? {})) parameters[name] = String(value);
  if (strategyType !== 'flexibleRollout') return parameters;

  const rollout = parameters.rollout || '100';
  if (!/^\d+(\.\d+)?$/.test(rollout) || Number(rollout) > 100) {
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
