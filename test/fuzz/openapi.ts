/** A JSON schema as the OpenAPI document holds it (draft 2020-12, as @fastify/swagger writes it). */
export type JsonSchema = {
  type?: string | string[];
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  maxProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One method of one path, with the schemas of what a request to it carries. */
export interface Operation {
  method: string;
  /** The OpenAPI path, e.g. `/api/admin/projects/{projectId}`. */
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  body?: JsonSchema;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/**
 * An answer that never ends (Server-Sent Events): a request of the fuzzer would wait for it
 * forever. Streams have tests of their own (src/client/streaming.test.ts).
 */
function isStream(operation: OpenApiOperation): boolean {
  return operation.responses?.['200']?.content?.['text/event-stream'] !== undefined;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** Replaces every `#/components/schemas/X` reference by the schema it names. */
function inline(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (depth > 20) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
    const target = components[name];
    if (!target) throw new Error(`unknown schema reference ${schema.$ref}`);
    return inline(target, components, depth + 1);
  }
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, inline(v, components, depth + 1)]),
    );
  }
  if (schema.items) out.items = inline(schema.items, components, depth + 1);
  if (typeof schema.additionalProperties === 'object') {
    out.additionalProperties = inline(schema.additionalProperties, components, depth + 1);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (schema[key]) out[key] = schema[key]!.map((s) => inline(s, components, depth + 1));
  }
  return out;
}

/** Every operation of the document, in the document's order: new routes are fuzzed as they appear. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const components = document.components?.schemas ?? {};
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!METHODS.has(method) || isStream(operation)) continue;
      const parameters = (operation.parameters ?? []).map((p) => ({
        in: p.in,
        name: p.name,
        required: p.required === true,
        schema: inline(p.schema, components),
      }));
      const json = operation.requestBody?.content['application/json'];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path'),
        query: parameters.filter((p) => p.in === 'query'),
        body: json ? inline(json.schema, components) : undefined,
      });
    }
  }
  return operations;
}
