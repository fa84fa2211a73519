import { existsSync, readFileSync } from 'node:fs';
import type { Logger } from '../log.js';
import { BUNDLED_TEMPLATE } from './assets.js';
import type { Database } from './database.js';
import type { PoolOptions } from './pool.js';

// Not in database.ts: both databases import its types, and opening one imports that one.

/** What opening the database reads of the configuration. */
export interface DatabaseSettings {
  databaseUrl: string | undefined;
  databasePool: PoolOptions;
  dataDir: string;
}

export async function openDatabase(config: DatabaseSettings, log: Logger): Promise<Database> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(config.databaseUrl, { pool: config.databasePool, log });
  }
  const { openEmbedded } = await import('./embedded.js');
  // Read only for a new data directory: a restart needs none of its megabytes.
  const template = () => (existsSync(BUNDLED_TEMPLATE) ? readFileSync(BUNDLED_TEMPLATE) : undefined);
  return openEmbedded({ dataDir: config.dataDir, template });
}
