import { openEmbedded } from './embedded.js';
import { migrate } from './migrate.js';

/**
 * An initialized and migrated embedded database, dumped as a tarball. A new data directory
 * starts from it instead of running initdb (seconds), and every test file clones it.
 */
export async function buildEmbeddedTemplate(): Promise<Uint8Array> {
  const db = await openEmbedded({});
  try {
    await migrate(db);
    const dump = await db.pglite.dumpDataDir('gzip');
    return new Uint8Array(await dump.arrayBuffer());
  } finally {
    await db.close();
  }
}
