import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The files that ship beside the database code: the migrations, and the initialized database that
// `npm run build` writes. They sit in the db/ folder next to this module — in src/, in dist/, and
// next to the bundled dist/main.js, which carries this module inside it.
const here = path.dirname(fileURLToPath(import.meta.url));
const DB_DIR = path.basename(here) === 'db' ? here : path.join(here, 'db');

export const MIGRATIONS_DIR = path.join(DB_DIR, 'migrations');

/** Written by `npm run build` (at install): an initialized, migrated embedded database. */
export const BUNDLED_TEMPLATE = path.join(DB_DIR, 'pglite-template.tgz');

/** The package's manifest, at the root above src/ and dist/: the version Flagpole reports. */
export const PACKAGE_JSON = path.join(DB_DIR, '..', '..', 'package.json');
