import type { AppContext } from '../app-context.js';
import type { Actor } from '../http/identity.js';
import { saveNamedSetting } from '../settings/named.js';
import { MAINTENANCE_SETTING, type MaintenanceSetting } from './state.js';

export function readMaintenance(ctx: AppContext): MaintenanceSetting {
  return { enabled: ctx.maintenance.enabled };
}

/** Turns maintenance mode on or off; recorded as Unleash records it, also when it does not change. */
export async function switchMaintenance(ctx: AppContext, actor: Actor, enabled: boolean): Promise<void> {
  await ctx.db.transaction((tx) =>
    saveNamedSetting<MaintenanceSetting>(tx, actor, MAINTENANCE_SETTING, { enabled }),
  );
}
