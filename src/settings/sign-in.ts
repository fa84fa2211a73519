import type { SignInDetails } from '../http/errors.js';
import type { ConfigSync } from '../sync/sync.js';
import { OIDC_SETTING, SIMPLE_SETTING } from './named.js';
import type { OidcSettings, SimpleSettings } from './schemas.js';
import { findSetting } from './store.js';

/**
 * Which ways of signing in are on, as a sign-in page shows them, held in memory: every answer
 * 401 tells a browser, and must cost no SQL. It follows the configuration revision: this process
 * learns of a change before answering it, the others within a second. Signing in itself reads the
 * settings afresh.
 */
export class SignInState {
  passwordDisabled = false;
  oidcEnabled = false;

  /**
   * What a sign-in page needs, in the fields Unleash adds to a 401 without credentials: where the
   * password form posts, whether to hide it, and the other ways in, each a link to follow.
   */
  describe(): SignInDetails {
    return {
      path: '/auth/simple/login',
      type: 'password',
      defaultHidden: this.passwordDisabled,
      options: this.oidcEnabled
        ? [{ type: 'oidc', message: 'Sign in with OpenID Connect', path: '/auth/oidc/login' }]
        : [],
    };
  }

  attach(sync: ConfigSync): void {
    sync.follow({
      load: async (tx, changes) => {
        if (!changes.full && !changes.scopes.has('settings')) return undefined;
        const simple = await findSetting<SimpleSettings>(tx, SIMPLE_SETTING);
        const oidc = await findSetting<Pick<OidcSettings, 'enabled'>>(tx, OIDC_SETTING);
        return () => {
          this.passwordDisabled = simple?.disabled === true;
          this.oidcEnabled = oidc?.enabled === true;
        };
      },
    });
  }
}
