import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let version: string | undefined;

/**
 * Flagpole's version, from the package.json of the installation: the first one above this module
 * (in src/ or dist/, or beside the bundled dist/main.js) that is Flagpole's. Read once.
 */
export function flagpoleVersion(): string {
  if (version !== undefined) return version;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'flagpole' && pkg.version) return (version = pkg.version);
    }
    const parent = path.dirname(dir);
    // Copied somewhere without its package.json: nothing says which version this is.
    if (parent === dir) return (version = 'unknown');
    dir = parent;
  }
}
