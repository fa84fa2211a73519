import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The web UI is built by `npm run build` (at install) into dist/ui/ of the package. This module
// runs from src/web/ (tests, `npm run dev`), from dist/web/, or inside the bundled dist/main.js.
const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, path.basename(here) === 'web' ? '../..' : '..');

export const UI_DIR = path.join(packageRoot, 'dist', 'ui');

/** Whether the UI has been built; without it the server still serves the API. */
export function isUiBuilt(dir = UI_DIR): boolean {
  return existsSync(path.join(dir, 'index.html'));
}
