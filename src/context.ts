import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { RevisionWatcher } from './events/revision.js';
import { TokenCache } from './tokens/cache.js';

/** What every route and service is given: made once at start, shared by all requests. */
export interface AppContext {
  config: Config;
  db: Database;
  /** The configuration revision; caches follow it. */
  revision: RevisionWatcher;
  /** API tokens resolved before (emptied on every revision). */
  tokenCache: TokenCache;
}

export function createContext(config: Config, db: Database): AppContext {
  const revision = new RevisionWatcher(db);
  const tokenCache = new TokenCache();
  revision.onChange(() => tokenCache.clear());
  return { config, db, revision, tokenCache };
}
