import type { DeliveryWorker } from './addons/delivery.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { IdentityCache } from './identity/cache.js';
import type { JobRunner } from './jobs/runner.js';
import type { Logger } from './log.js';
import type { MaintenanceState } from './maintenance/state.js';
import type { OidcProviders } from './oidc/provider.js';
import type { FeatureModel } from './read-model/model.js';
import type { SecretBox } from './secrets.js';
import type { FrontendOrigins } from './settings/frontend-origins.js';
import type { SignInState } from './settings/sign-in.js';
import type { ConfigSync } from './sync/sync.js';

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
  /** Runs background jobs (scheduled change requests) once the app has started it. */
  jobs: JobRunner;
  /** The origins whose pages may call the SDK paths (CORS). */
  frontendOrigins: FrontendOrigins;
  /** Which ways of signing in are on; follows the revision. */
  signIn: SignInState;
  /** The OpenID providers sign-in talks to: their metadata and keys, as last fetched. */
  oidc: OidcProviders;
}
