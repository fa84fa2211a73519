import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { FeatureModel } from './features/model.js';
import { IdentityCache } from './identity/cache.js';
import type { Logger } from './log.js';
import { fetchFromProvider, OidcProviders } from './oidc/provider.js';
import { SecretBox } from './secrets.js';
import { SignInState } from './settings/sign-in.js';
import { ConfigSync } from './sync/sync.js';

/** What every route and service is given: made once at start, shared by all requests. */
export interface AppContext {
  config: Config;
  db: Database;
  log: Logger;
  /** The configuration revision; every cache below follows it. */
  sync: ConfigSync;
  /** The flag configuration in memory, for admin reads and SDK answers. */
  model: FeatureModel;
  /** Credentials and grants resolved before. */
  identityCache: IdentityCache;
  /** Opens and seals the secrets stored to be used again (FLAGPOLE_SECRET_KEY). */
  secrets: SecretBox;
  /** Which ways of signing in are on; follows the revision. */
  signIn: SignInState;
  /** The OpenID providers sign-in talks to: their metadata and keys, as last fetched. */
  oidc: OidcProviders;
}

export function createContext(config: Config, db: Database, log: Logger): AppContext {
  const sync = new ConfigSync(db, log);
  const model = new FeatureModel(db, log);
  model.attach(sync);
  const identityCache = new IdentityCache();
  sync.follow({
    load: async (_tx, changes) =>
      changes.full || changes.scopes.has('identity') ? () => identityCache.clear() : undefined,
  });
  const signIn = new SignInState();
  signIn.attach(sync);
  return {
    config,
    db,
    log,
    sync,
    model,
    identityCache,
    secrets: new SecretBox(config.secretKey),
    signIn,
    oidc: new OidcProviders(fetchFromProvider),
  };
}
