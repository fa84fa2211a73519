/**
 * A JSON value as a `jsonb` column gives it back: what JSON leaves out (undefined members)
 * left out, and object members in jsonb's order — shorter keys first, keys of one length by their
 * bytes. A copy kept in memory of what was written then serializes as one read back does, so
 * answers (and their ETags) do not depend on which of the two a process holds.
 */
export function asStoredJson<T>(value: T): T {
  return ordered(JSON.parse(JSON.stringify(value))) as T;
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).map((key) => ({ key, bytes: Buffer.from(key) }));
  keys.sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes));
  const out: Record<string, unknown> = {};
  for (const { key } of keys) out[key] = ordered((value as Record<string, unknown>)[key]);
  return out;
}
