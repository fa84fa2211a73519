import { contextValue } from './context.js';
import { variantBucket } from './murmur3.js';
import type { Context, VariantDefinition } from './types.js';

const DEFAULT_STICKINESS_FIELDS = ['userId', 'sessionId', 'remoteAddress'] as const;

function randomSeed(): string {
  return String(Math.round(Math.random() * 100000));
}

function stickinessValue(context: Context, stickiness: string | undefined): string {
  if (stickiness && stickiness !== 'default') return contextValue(context, stickiness) ?? randomSeed();
  for (const field of DEFAULT_STICKINESS_FIELDS) {
    const value = context[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return randomSeed();
}

/** A variant picked, and whether by its weight (a split) rather than by an override naming the context. */
export interface Pick {
  variant: VariantDefinition;
  split: boolean;
}

/**
 * A variant from a list: the first whose override matches the context, otherwise the one whose
 * weight range holds the context's point (stickiness hashed within `groupId`). Null when the list
 * has no weight at all.
 */
export function pickVariant(
  variants: VariantDefinition[],
  groupId: string,
  stickiness: string | undefined,
  context: Context,
): Pick | null {
  const totalWeight = variants.reduce((sum, v) => sum + v.weight, 0);
  if (totalWeight <= 0) return null;
  const overridden = variants.find((v) =>
    v.overrides?.some((o) => o.values.some((value) => value === contextValue(context, o.contextName))),
  );
  if (overridden) return { variant: overridden, split: false };
  const point = variantBucket(stickinessValue(context, stickiness), groupId, totalWeight);
  let upTo = 0;
  for (const v of variants) {
    if (v.weight === 0) continue;
    upTo += v.weight;
    if (upTo >= point) return { variant: v, split: true };
  }
  return null;
}
