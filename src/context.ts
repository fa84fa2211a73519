import type { Config } from './config.js';
import type { Database } from './db/database.js';

/** What every route and service is given: read once at start, shared by all requests. */
export interface AppContext {
  config: Config;
  db: Database;
}
