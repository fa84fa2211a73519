// Compiles the server into dist/ and prepares what it needs at run time: the SQL migrations and an
// initialized embedded database, so the first start on an empty DATA_DIR skips initdb.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
// A migration renamed or removed in src/ must not linger in dist/ from an earlier build.
rmSync('dist/db/migrations', { recursive: true, force: true });
mkdirSync('dist/db/migrations', { recursive: true });
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });

const started = Date.now();
const { buildEmbeddedTemplate } = await import('../dist/db/template.js');
const { BUNDLED_TEMPLATE } = await import('../dist/db/database.js');
writeFileSync(BUNDLED_TEMPLATE, await buildEmbeddedTemplate());
console.log(`flagpole: built dist/ and the embedded database template in ${Date.now() - started} ms`);
