import type { Static } from '@sinclair/typebox';
import { isDecimalNumber } from '../../constraints/rules.js';
import { throwIfProblems } from '../../http/check.js';
import { type ErrorDetail, ValidationError } from '../../http/errors.js';
import type { StrategyVariantSchema, VariantSchema, WeightType } from './schemas.js';

export const TOTAL_WEIGHT = 1000;

export interface Variant {
  name: string;
  weight: number;
  weightType: WeightType;
  stickiness: string;
  payload?: { type: string; value: string };
  overrides?: { contextName: string; values: string[] }[];
}

/**
 * Unleash's weight rule, for environment and strategy variants alike: `fix` variants keep their
 * weight, the `variable` ones share what is left of 1000 equally, and the list comes back sorted
 * by name. The remainder goes one each to the first variable variants by name: that is what
 * Unleash stores (and the contract's example shows), whatever order they were sent in.
 */
export function fixVariantWeights<V extends { name: string; weight: number; weightType: WeightType }>(
  variants: readonly V[],
): V[] {
  if (variants.length === 0) return [];
  const byName = [...variants].sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const variable = byName.filter((v) => v.weightType === 'variable');
  if (variable.length === 0) {
    throw new ValidationError(
      'At least one variant must have the weight type "variable", so that the weights can add up to 1000.',
    );
  }
  const fixed = byName.filter((v) => v.weightType === 'fix');
  const fixedTotal = fixed.reduce((sum, v) => sum + v.weight, 0);
  if (fixedTotal > TOTAL_WEIGHT) {
    throw new ValidationError(
      `The "fix" weights add up to ${fixedTotal}, more than ${TOTAL_WEIGHT} (100%): lower them.`,
    );
  }
  const share = Math.floor((TOTAL_WEIGHT - fixedTotal) / variable.length);
  let remainder = (TOTAL_WEIGHT - fixedTotal) % variable.length;
  const shared = variable.map((v) => {
    const extra = remainder > 0 ? 1 : 0;
    remainder -= extra;
    return { ...v, weight: share + extra };
  });
  return [...shared, ...fixed].sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

type VariantInput = Static<typeof VariantSchema> | Static<typeof StrategyVariantSchema>;

function payloadProblem(payload: { type: string; value: string }): string | null {
  if (payload.type === 'json') {
    try {
      JSON.parse(payload.value);
    } catch {
      return 'The payload has the type "json" but its value is not valid JSON text.';
    }
  }
  if (payload.type === 'number' && !isDecimalNumber(payload.value)) {
    return `The payload has the type "number" but its value "${payload.value}" is not a number.`;
  }
  return null;
}

/**
 * Variants as sent (already of the right shape) to variants as stored: names unique, payloads
 * that parse as their type, defaults filled in, weights fixed, sorted by name.
 */
export function prepareVariants(input: readonly VariantInput[], path: string): Variant[] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  input.forEach((v, i) => {
    if (seen.has(v.name)) {
      problems.push({
        path: `${path}.${i}.name`,
        message: `Two variants are named "${v.name}": variant names must be unique.`,
      });
    }
    seen.add(v.name);
    const problem = v.payload ? payloadProblem(v.payload) : null;
    if (problem) problems.push({ path: `${path}.${i}.payload.value`, message: problem });
  });
  throwIfProblems(problems);
  const variants: Variant[] = input.map((v) => ({
    name: v.name,
    weight: v.weight,
    weightType: v.weightType ?? 'variable',
    stickiness: v.stickiness ?? 'default',
    ...(v.payload ? { payload: { type: v.payload.type, value: v.payload.value } } : {}),
    ...('overrides' in v && v.overrides ? { overrides: v.overrides } : {}),
  }));
  return fixVariantWeights(variants);
}
