import { LRUCache } from 'lru-cache';

/** Data points held at most over all answers (one per hour, application and environment). */
const MAX_POINTS = 200_000;

interface Entry<T> {
  feature: object;
  answer: T;
}

/**
 * E20 answers by feature, window and current hour, so dashboards polling many features do not
 * each cost a query. Emptied whenever usage counts are written, here or by another process. An
 * entry serves only the feature record it was made for: a feature deleted and made again under the
 * same name does not show the counts of the old one.
 */
export class RawMetricsCache<T extends { data: readonly unknown[] }> {
  private readonly entries = new LRUCache<string, Entry<T>>({
    maxSize: MAX_POINTS,
    sizeCalculation: (entry) => entry.answer.data.length + 1,
  });
  private generation = 0;

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  async get(
    feature: { name: string },
    hours: number,
    currentHour: number,
    load: () => Promise<T>,
  ): Promise<T> {
    const key = `${feature.name}\u0000${hours}\u0000${currentHour}`;
    const hit = this.entries.get(key);
    if (hit?.feature === feature) return hit.answer;
    const generation = this.generation;
    const answer = await load();
    // Counts written while this read ran may be missing from it: answer it, but do not keep it.
    if (generation === this.generation) this.entries.set(key, { feature, answer });
    return answer;
  }
}
