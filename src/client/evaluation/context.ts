import type { Context } from './types.js';

/** A standard field of the context, or else a custom property, as a string. */
export function contextValue(context: Context, field: string): string | undefined {
  const value = context[field] ?? context.properties?.[field];
  if (value === undefined || value === null) return undefined;
  return value instanceof Date ? value.toISOString() : String(value);
}
