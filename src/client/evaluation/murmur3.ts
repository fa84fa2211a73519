const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/**
 * MurmurHash3, x86 32-bit, over the low byte of each UTF-16 code unit of `key` — exactly what the
 * Unleash Node SDK (and so Unleash's own frontend API) hashes, so a user lands in the same rollout
 * bucket here as there, non-ASCII stickiness values included.
 */
export function murmur3(key: string, seed = 0): number {
  const length = key.length;
  const blocks = length - (length % 4);
  let h = seed >>> 0;
  let i = 0;
  for (; i < blocks; i += 4) {
    let k =
      (key.charCodeAt(i) & 0xff) |
      ((key.charCodeAt(i + 1) & 0xff) << 8) |
      ((key.charCodeAt(i + 2) & 0xff) << 16) |
      ((key.charCodeAt(i + 3) & 0xff) << 24);
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, C2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const rest = length % 4;
  if (rest > 0) {
    let tail = 0;
    if (rest === 3) tail ^= (key.charCodeAt(i + 2) & 0xff) << 16;
    if (rest >= 2) tail ^= (key.charCodeAt(i + 1) & 0xff) << 8;
    tail ^= key.charCodeAt(i) & 0xff;
    tail = Math.imul(tail, C1);
    tail = (tail << 15) | (tail >>> 17);
    tail = Math.imul(tail, C2);
    h ^= tail;
  }
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const STRATEGY_SEED = 0;
const VARIANT_SEED = 86028157;

/** The 1..100 bucket of `id` within `groupId`, as gradual rollouts use it. */
export function rolloutBucket(id: string, groupId: string): number {
  return (murmur3(`${groupId}:${id}`, STRATEGY_SEED) % 100) + 1;
}

/** The 1..totalWeight point of `id` within `groupId`, as variant selection uses it. */
export function variantBucket(id: string, groupId: string, totalWeight: number): number {
  return (murmur3(`${groupId}:${id}`, VARIANT_SEED) % totalWeight) + 1;
}
