import { fieldReader } from './context.js';
import { variantBuckets } from './murmur3.js';
import type { Context, VariantDefinition } from './types.js';

function randomSeed(): string {
  return String(Math.round(Math.random() * 100000));
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The first of userId, sessionId and remoteAddress the context has, else a random one. */
function defaultStickiness(context: Context): string {
  const { userId, sessionId, remoteAddress } = context;
  if (nonEmpty(userId)) return userId;
  if (nonEmpty(sessionId)) return sessionId;
  return nonEmpty(remoteAddress) ? remoteAddress : randomSeed();
}

/** Where the id a variant is picked by comes from, decided once. */
function stickinessOf(stickiness: string | undefined): (context: Context) => string {
  if (!stickiness || stickiness === 'default') return defaultStickiness;
  const read = fieldReader(stickiness);
  return (context) => read(context) ?? randomSeed();
}

/**
 * Picks from a list of variants, compiled once per list: the first whose override names the
 * context's value (`split` false), otherwise the one whose weight range holds the context's point,
 * its stickiness hashed within `groupId` (`split` true). `make` builds, once per variant and way,
 * what a pick returns. Null when the list has no weight at all.
 */
export function compileVariants<T>(
  variants: VariantDefinition[],
  groupId: string,
  stickiness: string | undefined,
  make: (variant: VariantDefinition, split: boolean) => T,
): ((context: Context) => T | null) | null {
  const totalWeight = variants.reduce((sum, v) => sum + v.weight, 0);
  if (totalWeight <= 0) return null;
  const overrides = variants.flatMap((v) =>
    (v.overrides ?? []).map((o) => ({
      read: fieldReader(o.contextName),
      values: new Set(o.values),
      pick: make(v, false),
    })),
  );
  const ranges: { upTo: number; pick: T }[] = [];
  let upTo = 0;
  for (const v of variants) {
    if (v.weight === 0) continue;
    upTo += v.weight;
    ranges.push({ upTo, pick: make(v, true) });
  }
  const point = variantBuckets(groupId, totalWeight);
  const idOf = stickinessOf(stickiness);
  return (context) => {
    for (const o of overrides) if (o.values.has(o.read(context) as string)) return o.pick;
    const at = point(idOf(context));
    for (const r of ranges) if (r.upTo >= at) return r.pick;
    return null;
  };
}
