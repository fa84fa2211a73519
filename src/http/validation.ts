import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { findUnstorableText } from './body/checks.js';
import { ValidationError } from './errors.js';
import type { App } from './route.js';

// The schemas are ours, built with TypeBox, and not checked against JSON Schema's own: that check
// compiles the meta-schema in each Ajv instance on its first use, 15-25 ms of the first request
// of a kind (40 ms of the first state import).
function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    validateSchema: false,
    ...options,
  });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Bodies are checked as sent: `"yes"` is not a boolean and `1` is not a string. Path and query
 * values arrive as text, so they are coerced to the types their schemas ask for.
 */
export function registerValidation(app: App): void {
  const bodyAjv = makeAjv({ coerceTypes: false });
  const textAjv = makeAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    lazily(() => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object)),
  );
  // `%00` decodes to a NUL no text column takes; the only way into a path or query value (bytes
  // that are not UTF-8 never decode, and the body is checked as it is parsed).
  app.addHook('preValidation', (request, _reply, done) => {
    const found = request.url.includes('%00')
      ? (findUnstorableText(request.params, 'params') ?? findUnstorableText(request.query, 'query'))
      : null;
    done(found ? new ValidationError(found.message, [found]) : undefined);
  });
}

export type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * A validator compiled on its first use rather than at start: compiling every route's schemas
 * up front was most of the start-up time, and most routes are never called by a given server.
 */
export function lazily(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const validate: Validate = (data) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

/** Fastify's own response serializers (fast-json-stringify), each built on its route's first answer. */
export function lazySerializers() {
  const build = SerializerSelector();
  return {
    compilersFactory: {
      buildSerializer(externalSchemas: unknown, options: unknown) {
        const compile = build(externalSchemas as never, options as never);
        return (route: Parameters<typeof compile>[0]) => {
          let serialize: ((data: unknown) => string) | undefined;
          return (data: unknown) => {
            serialize ??= compile(route);
            return serialize(data);
          };
        };
      },
    },
  };
}
