import { DeliveryWorker } from './addons/delivery.js';
import { queueDeliveries } from './addons/queue.js';
import type { AppContext } from './app-context.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { IdentityCache } from './identity/cache.js';
import { JobRunner } from './jobs/runner.js';
import type { Logger } from './log.js';
import { MaintenanceState } from './maintenance/state.js';
import { OidcProviders } from './oidc/provider.js';
import { outboundFetch } from './outbound/fetch.js';
import { FeatureModel } from './read-model/model.js';
import { SecretBox } from './secrets.js';
import { FrontendOrigins } from './settings/frontend-origins.js';
import { SignInState } from './settings/sign-in.js';
import { ConfigSync } from './sync/sync.js';

/** Makes the workers the app runs on and joins them: the one place that knows how they connect. */
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
    oidc: new OidcProviders(outboundFetch(config.integrations.allowed)),
  };
  const deliveries = new DeliveryWorker(ctx);
  queueDeliveries(db, sync, () => deliveries.wake());
  return { ...ctx, deliveries, jobs: new JobRunner(db, log) };
}
