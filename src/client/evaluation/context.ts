import type { Context } from './types.js';

const asText = (value: unknown): string | undefined =>
  value === undefined || value === null
    ? undefined
    : value instanceof Date
      ? value.toISOString()
      : String(value);

/** A standard field of the context, or else a custom property, as a string. */
export function contextValue(context: Context, field: string): string | undefined {
  return asText(context[field] ?? context.properties?.[field]);
}

type Reader = (context: Context) => string | undefined;

/** The standard fields, read by name rather than by a key looked up at every request. */
const STANDARD_READERS: Record<string, Reader> = {
  userId: (context) => asText(context.userId ?? context.properties?.userId),
  sessionId: (context) => asText(context.sessionId ?? context.properties?.sessionId),
  remoteAddress: (context) => asText(context.remoteAddress ?? context.properties?.remoteAddress),
  appName: (context) => asText(context.appName ?? context.properties?.appName),
  environment: (context) => asText(context.environment ?? context.properties?.environment),
};

/** How a field is read from contexts, as `contextValue` reads it, decided once per field. */
export function fieldReader(field: string): Reader {
  return Object.hasOwn(STANDARD_READERS, field)
    ? STANDARD_READERS[field]!
    : (context) => contextValue(context, field);
}
