import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { App } from './route.js';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
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
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object),
  );
}
