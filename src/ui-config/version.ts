import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in the first package.json above this module that is Flagpole's (in src/ or dist/,
 * or beside the bundled dist/main.js); `unknown` when it was copied somewhere without one.
 */
function findVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'flagpole' && pkg.version) return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

let version: string | undefined;

/** Flagpole's version, read once. */
export function flagpoleVersion(): string {
  version ??= findVersion();
  return version;
}
