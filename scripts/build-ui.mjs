// Builds the web admin UI (ui/) into dist/ui/ with Vite, writes a gzip and a brotli copy of every
// text file beside it (Flagpole serves those to browsers that accept them), and fails when the
// JavaScript a first screen needs is over budget. Run by scripts/build.mjs; alone: npm run build:ui.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

const OUT = 'dist/ui';
/** Gzipped JavaScript a browser loads before it can show the first screen of any route. */
export const FIRST_SCREEN_BUDGET = 120 * 1024;
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

function compressAll() {
  for (const file of files(OUT)) {
    if (!COMPRESSIBLE.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
    const content = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

const gzippedSize = (file) => gzipSync(readFileSync(path.join(OUT, file)), { level: 9 }).length;

/** The chunks a manifest entry loads before it runs: itself and, transitively, what it imports. */
function staticClosure(manifest, key, into = new Set()) {
  if (into.has(key)) return into;
  into.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/**
 * The worst first screen: the entry's chunks plus those of the heaviest lazily loaded screen
 * (a deep link into it loads both before anything shows).
 */
export function firstScreenBytes(manifest) {
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const entry = staticClosure(manifest, entryKey);
  const lazyKeys = new Set(Object.values(manifest).flatMap((chunk) => chunk.dynamicImports ?? []));
  const screens = [new Set(), ...[...lazyKeys].map((key) => staticClosure(manifest, key))];
  const bytes = (keys) => [...keys].reduce((sum, key) => sum + gzippedSize(manifest[key].file), 0);
  return Math.max(...screens.map((screen) => bytes(new Set([...entry, ...screen]))));
}

export async function buildUi() {
  await build({ configFile: 'ui/vite.config.ts', logLevel: 'warn' });
  const manifest = JSON.parse(readFileSync(path.join(OUT, '.vite/manifest.json'), 'utf8'));
  const bytes = firstScreenBytes(manifest);
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
  if (bytes > FIRST_SCREEN_BUDGET) {
    throw new Error(
      `The UI's first screen needs ${kb(bytes)} of gzipped JavaScript, over the budget of ${kb(FIRST_SCREEN_BUDGET)}: load more of it lazily.`,
    );
  }
  compressAll();
  return bytes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bytes = await buildUi();
  console.log(`flagpole: built the UI into dist/ui (first screen: ${(bytes / 1024).toFixed(1)} kB gzipped)`);
}
