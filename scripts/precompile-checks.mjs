// Compiles the checks of src/http/check.ts (the items of a state document or of a batch import, a
// strategy after a JSON Patch…) into dist/http/precompiled-checks.js with Ajv's standalone code, so
// that no process compiles them on their first use: the state document's took 65 ms of the first
// import. Run by build.mjs on the compiled dist/, before it is bundled.
import { writeFileSync } from 'node:fs';
import { _, Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';

/**
 * Ajv's standalone code asks for its runtime helpers with require() (CommonJS files, named without
 * their extension, marked __esModule): as imports, it is an ES module. Which object a namespace's
 * default is differs between loaders (Node and esbuild: module.exports; Vitest: exports.default),
 * so each helper module is taken as require() would give it.
 */
function requiresAsImports(code) {
  const imports = new Map();
  const body = code.replace(/^"use strict";/, '').replace(/require\("([^"]+)"\)/g, (_match, name) => {
    const module = name.endsWith('.js') ? name : `${name}.js`;
    if (!imports.has(module)) imports.set(module, `runtime${imports.size}`);
    return imports.get(module);
  });
  const lines = [...imports].flatMap(([module, name]) => [
    `import * as ${name}Namespace from ${JSON.stringify(module)};`,
    `const ${name} = ${name}Namespace.default?.__esModule ? ${name}Namespace.default : ${name}Namespace;`,
  ]);
  return `${lines.join('\n')}\n${body}`;
}

export async function precompileChecks() {
  // Every module that makes a check is reached from the app's.
  await import('../dist/app.js');
  const { CHECK_OPTIONS, checkedSchemas, checkKeyOf } = await import('../dist/http/check.js');
  const ajv = new Ajv({
    ...CHECK_OPTIONS,
    code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  const exported = {};
  for (const schema of checkedSchemas) {
    const key = checkKeyOf(schema);
    if (ajv.getSchema(key)) continue;
    ajv.addSchema(schema, key);
    exported[`check${Object.keys(exported).length}`] = key;
  }
  const code = requiresAsImports(standaloneCode(ajv, exported));
  const entries = Object.entries(exported).map(([name, key]) => `[${JSON.stringify(key)}, ${name}]`);
  writeFileSync(
    'dist/http/precompiled-checks.js',
    `${code}\nexport const precompiledChecks = new Map([\n  ${entries.join(',\n  ')},\n]);\n`,
  );
  return Object.keys(exported).length;
}
