import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import { isOriginEntry } from '../http/cors.js';
import { ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import type { ConfigSync } from '../sync/sync.js';
import { saveNamedSetting } from './service.js';
import { findSetting } from './store.js';

/** Unleash's name for the record, so the event reads the same. */
const FRONTEND = 'unleash.frontend';

interface FrontendSettings {
  frontendApiOrigins: string[];
}

/** The origins an Admin set, or null while none were set (the start-up variable applies). */
export async function findFrontendApiOrigins(db: Queryable): Promise<string[] | null> {
  return (await findSetting<FrontendSettings>(db, FRONTEND))?.frontendApiOrigins ?? null;
}

function checkOrigins(origins: string[]): void {
  const details = origins.flatMap((origin, i) =>
    isOriginEntry(origin)
      ? []
      : [
          {
            path: `frontendApiOrigins.${i}`,
            message: `"${origin}" is not an origin: write * or scheme://host[:port] with nothing after it, such as https://app.example.com.`,
          },
        ],
  );
  if (details.length === 0) return;
  throw new ValidationError(
    details.length === 1
      ? details[0]!.message
      : 'Some of `frontendApiOrigins` are not origins: see `details`.',
    details,
  );
}

/**
 * The origins whose pages may call the SDK paths, replacing the start-up variable's. The first
 * save records `setting-created`, later ones `setting-updated`, as Unleash does; every process
 * applies it within a second (the event moves the revision its cache follows).
 */
export async function setFrontendApiOrigins(ctx: AppContext, actor: Actor, origins: string[]): Promise<void> {
  checkOrigins(origins);
  const settings: FrontendSettings = { frontendApiOrigins: origins };
  await ctx.db.transaction((tx) => saveNamedSetting(tx, actor, FRONTEND, settings));
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
