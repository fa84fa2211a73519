import type { Queryable } from '../db/database.js';
import type { ConfigSync } from '../sync/sync.js';
import { findSetting } from './store.js';

/** Unleash's name for the record, so the event reads the same. */
export const FRONTEND = 'unleash.frontend';

export interface FrontendSettings {
  frontendApiOrigins: string[];
}

/** The origins an Admin set, or null while none were set (the start-up variable applies). */
export async function findFrontendApiOrigins(db: Queryable): Promise<string[] | null> {
  return (await findSetting<FrontendSettings>(db, FRONTEND))?.frontendApiOrigins ?? null;
}

/**
 * The allowed origins every request is checked against, from memory: what an Admin stored, or
 * else `UNLEASH_FRONTEND_API_ORIGINS`. Reloaded with the configuration revision whenever a
 * setting changed, here or in another process. A new list is a new array, so a user of it can
 * tell a change by identity.
 */
export class FrontendOrigins {
  private origins: readonly string[];

  constructor(private readonly fallback: readonly string[]) {
    this.origins = fallback;
  }

  get current(): readonly string[] {
    return this.origins;
  }

  attach(sync: ConfigSync): void {
    sync.follow({
      load: async (tx, changes) => {
        if (!changes.full && !changes.scopes.has('settings')) return undefined;
        const stored = await findFrontendApiOrigins(tx);
        return () => {
          this.origins = stored ?? this.fallback;
        };
      },
    });
  }
}
