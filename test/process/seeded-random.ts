import { randomInt } from 'node:crypto';

export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/**
 * The run's seed: FLAGPOLE_SEED when set, else a random one, printed so that a failing run's
 * choices (operations, kill moments) can be replayed. Timing still varies from run to run.
 */
export function runSeed(label: string): number {
  const seed = process.env.FLAGPOLE_SEED ? Number(process.env.FLAGPOLE_SEED) : randomInt(2 ** 31);
  console.log(`${label}: seed ${seed} (replay with FLAGPOLE_SEED=${seed})`);
  return seed;
}

/** mulberry32: small, fast, and good enough to pick test operations. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}
