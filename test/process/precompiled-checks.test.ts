import type { TSchema } from '@sinclair/typebox';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { expect, it } from 'vitest';
import type { Validate } from '../../src/http/validation.js';
import { stateDocument } from '../state-document.js';

// The built server's modules (dist/), as `npm start` runs them bundled.
const dist = (file: string) => new URL(`../../dist/${file}`, import.meta.url).href;

interface BuiltChecks {
  CHECK_OPTIONS: Options;
  checkedSchemas: ReadonlySet<TSchema>;
  checkKeyOf(schema: TSchema): string;
}

/** Values every check answers: good items of a state document, and what no item is. */
function samples(): unknown[] {
  const document = stateDocument(3, { prefix: 'sample-', firstSegmentId: 1 });
  const items = Object.values(document).flatMap((value): unknown[] => (Array.isArray(value) ? value : []));
  const spoilt = items.map((item) =>
    Object.fromEntries(
      Object.entries(item as object).map(([key, value]) => [
        key,
        typeof value === 'string' ? 7 : 'x'.repeat(300),
      ]),
    ),
  );
  return [...items, ...spoilt, {}, [], null, 'text', 12, { name: '' }, { id: -1, name: 'x'.repeat(101) }];
}

it('the build compiles every check of the server, and each answers as one compiled at run time', async () => {
  await import(dist('app.js'));
  const { CHECK_OPTIONS, checkedSchemas, checkKeyOf } = (await import(dist('http/check.js'))) as BuiltChecks;
  const { precompiledChecks } = (await import(dist('http/precompiled-checks.js'))) as {
    precompiledChecks: ReadonlyMap<string, Validate>;
  };
  expect(checkedSchemas.size).toBeGreaterThan(30);
  const ajv = new Ajv(CHECK_OPTIONS);
  addFormats.default(ajv);
  const values = samples();
  for (const schema of checkedSchemas) {
    const built = precompiledChecks.get(checkKeyOf(schema));
    expect(built, JSON.stringify(schema).slice(0, 200)).toBeTypeOf('function');
    const compiled = ajv.compile(schema);
    for (const value of values) {
      const answer = built!(value);
      expect({ answer, errors: built!.errors }).toEqual({ answer: compiled(value), errors: compiled.errors });
    }
  }
});
