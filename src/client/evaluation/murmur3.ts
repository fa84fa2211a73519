const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/**
 * MurmurHash3, x86 32-bit, over the low byte of each UTF-16 code unit of `key` — exactly what the
 * Unleash Node SDK (and so Unleash's own frontend API) hashes, so a user lands in the same rollout
 * bucket here as there, non-ASCII stickiness values included.
 */
export function murmur3(key: string, seed = 0): number {
  return finish(blocks(seed >>> 0, key), key, key.length);
}

/** The state after the whole 4-byte blocks of `key`. */
function blocks(seed: number, key: string): number {
  const end = key.length - (key.length % 4);
  let h = seed;
  for (let i = 0; i < end; i += 4) {
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
  return h;
}

/** The last 0–3 bytes of `key` and the mixing of a hash of `length` bytes in all. */
function finish(state: number, key: string, length: number): number {
  let h = state;
  const rest = key.length % 4;
  const i = key.length - rest;
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

/**
 * murmur3(`${prefix}${suffix}`, seed) for any suffix, with the prefix's whole blocks hashed once:
 * a rollout hashes `groupId:` and the id for every request, and the group is fixed.
 */
export function murmur3WithPrefix(prefix: string, seed: number): (suffix: string) => number {
  const head = prefix.length - (prefix.length % 4);
  const state = blocks(seed >>> 0, prefix.slice(0, head));
  const rest = prefix.slice(head);
  return (suffix) => {
    const key = rest + suffix;
    return finish(blocks(state, key), key, head + key.length);
  };
}

/** The 1..100 bucket of an id within `groupId`, as gradual rollouts use it. */
export function rolloutBuckets(groupId: string): (id: string) => number {
  const hash = murmur3WithPrefix(`${groupId}:`, STRATEGY_SEED);
  return (id) => (hash(id) % 100) + 1;
}

/** The 1..totalWeight point of an id within `groupId`, as variant selection uses it. */
export function variantBuckets(groupId: string, totalWeight: number): (id: string) => number {
  const hash = murmur3WithPrefix(`${groupId}:`, VARIANT_SEED);
  return (id) => (hash(id) % totalWeight) + 1;
}
