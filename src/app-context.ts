import { DeliveryWorker, queueDeliveries } from './addons/delivery.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { IdentityCache } from './identity/cache.js';
import type { Logger } from './log.js';
import { MaintenanceState } from './maintenance/state.js';
import { OidcProviders, providerFetch } from './oidc/provider.js';
import { FeatureModel } from './read-model/model.js';
import { SecretBox } from './secrets.js';
import { FrontendOrigins } from './settings/frontend-service.js';
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
  /** Whether the admin API takes changes; follows the revision. */
  maintenance: MaintenanceState;
  /** Sends integrations' deliveries once the app has started it. */
  deliveries: DeliveryWorker;
  /** The origins whose pages may call the SDK paths (CORS). */
  frontendOrigins: FrontendOrigins;
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
    load: async (_tx, changes) => {
      if (changes.full || changes.scopes.has('identity')) return () => identityCache.clear();
      return changes.scopes.has('profiles') ? () => identityCache.clearProfiles() : undefined;
    },
  });
  const signIn = new SignInState();
  signIn.attach(sync);
  const maintenance = new MaintenanceState();
  maintenance.attach(sync);
  const frontendOrigins = new FrontendOrigins(config.frontendApiOrigins);
  frontendOrigins.attach(sync);
  const ctx = {
    config,
    db,
    log,
    sync,
    model,
    identityCache,
    maintenance,
    frontendOrigins,
    secrets: new SecretBox(config.secretKey),
    signIn,
    oidc: new OidcProviders(providerFetch(config.integrations.allowed)),
  };
  const deliveries = new DeliveryWorker(ctx);
  queueDeliveries(db, () => deliveries.wake());
  return { ...ctx, deliveries };
}
