// Compiles the server into dist/ and prepares what it needs at run time: the SQL migrations, the
// checks of values compiled (scripts/precompile-checks.mjs) and an initialized embedded database,
// so the first start on an empty DATA_DIR skips initdb. Then
// dist/main.js becomes one bundle of the server and its pure-JavaScript dependencies: loading a few
// hundred modules one by one was the largest part of a restart. Last, the web UI (ui/) is built
// into dist/ui/ (scripts/build-ui.mjs).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { buildUi } from './build-ui.mjs';
import { precompileChecks } from './precompile-checks.mjs';

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
// A migration renamed or removed in src/ must not linger in dist/ from an earlier build.
rmSync('dist/db/migrations', { recursive: true, force: true });
mkdirSync('dist/db/migrations', { recursive: true });
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });

const started = Date.now();
const checks = await precompileChecks();
const { buildEmbeddedTemplate } = await import('../dist/db/template.js');
const { BUNDLED_TEMPLATE } = await import('../dist/db/assets.js');
writeFileSync(BUNDLED_TEMPLATE, await buildEmbeddedTemplate());

const { build } = await import('esbuild');
await build({
  entryPoints: ['dist/main.js'],
  outfile: 'dist/main.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // PGlite loads its WebAssembly and data files from its own folder, and the API reference's page
  // its static files: both stay packages of their own.
  external: ['@electric-sql/pglite', '@fastify/swagger-ui', 'pg-native'],
  // The CommonJS dependencies inside the bundle still call require().
  banner: {
    js: "import { createRequire as createRequireForBundle } from 'node:module';\nconst require = createRequireForBundle(import.meta.url);",
  },
  // Without comments and blank space the source V8 keeps for lazy compilation is half the size;
  // a single non-ASCII character in a comment would make it a two-byte string, twice the size again.
  // Names stay, for stack traces. Licence comments go to dist/main.js.LEGAL.txt.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'external',
  charset: 'ascii',
  logLevel: 'warning',
});
console.log(
  `flagpole: built dist/, ${checks} checks and the embedded database template in ${Date.now() - started} ms`,
);

const uiStarted = Date.now();
const firstScreen = await buildUi();
console.log(
  `flagpole: built the web UI into dist/ui/ in ${Date.now() - uiStarted} ms (first screen: ${(firstScreen / 1024).toFixed(1)} kB of gzipped JavaScript)`,
);
