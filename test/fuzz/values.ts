/**
 * What a generated request holds before it is sent. Plain JSON values, plus three things plain
 * values cannot say: a value of the fixture picked at send time (the fixture is built again during
 * a run, so its ids are not known when the request is generated), JSON text written as it is (a
 * number no double holds), and an object whose keys repeat or include `__proto__`.
 */

/** The `index`-th value (modulo the count) of the fixture's pool `pool`, e.g. a project id. */
export class FixturePick {
  constructor(
    readonly pool: string,
    readonly index: number,
  ) {}
}

/** JSON text sent as it is, e.g. `1e400` or `-0.0000`. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object as a list of entries: keys may repeat, and `__proto__` is an ordinary key. */
export class JsonEntries {
  constructor(readonly entries: [string, unknown][]) {}
}

export type Pools = Record<string, readonly (string | number)[]>;

/** The value a pick stands for now, or undefined when the pool is empty. */
export function pickFrom(pools: Pools, pick: FixturePick): string | number | undefined {
  const values = pools[pick.pool];
  if (!values || values.length === 0) return undefined;
  return values[pick.index % values.length];
}

/** The JSON text of a generated value, with its picks resolved against `pools`. */
export function toJsonText(value: unknown, pools: Pools): string {
  if (value instanceof FixturePick) return JSON.stringify(pickFrom(pools, value) ?? 'no-such-fixture-value');
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonEntries) {
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v, pools)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => toJsonText(v, pools)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v, pools)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A generated text value (query or path), with a pick resolved. */
export function toText(value: unknown, pools: Pools): string {
  if (value instanceof FixturePick) return String(pickFrom(pools, value) ?? 'no-such-fixture-value');
  if (value instanceof RawJson) return value.text;
  if (typeof value === 'string') return value;
  return toJsonText(value, pools);
}
