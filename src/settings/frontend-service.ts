import type { AppContext } from '../app-context.js';
import { isOriginEntry } from '../http/cors.js';
import { ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { FRONTEND, type FrontendSettings } from './frontend-origins.js';
import { saveNamedSetting } from './named.js';

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
