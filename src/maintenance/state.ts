import { findNamedSetting } from '../settings/named.js';
import type { ConfigSync } from '../sync/sync.js';

/** Unleash's name for the setting, so the events read the same. */
export const MAINTENANCE_SETTING = 'maintenance.mode';

export interface MaintenanceSetting {
  enabled: boolean;
}

/**
 * Whether maintenance mode is on, held in memory so the check costs every admin write nothing.
 * It follows the configuration revision: this process learns of its own switch before answering,
 * the others within a second.
 */
export class MaintenanceState {
  enabled = false;

  attach(sync: ConfigSync): void {
    sync.follow({
      load: async (tx, changes) => {
        if (!changes.full && !changes.scopes.has('settings')) return undefined;
        const setting = await findNamedSetting<MaintenanceSetting>(tx, MAINTENANCE_SETTING);
        return () => {
          this.enabled = setting?.enabled === true;
        };
      },
    });
  }
}
