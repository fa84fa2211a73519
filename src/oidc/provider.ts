import { LRUCache } from 'lru-cache';
import * as client from 'openid-client';
import type { OidcSettings } from '../settings/schemas.js';
import { SignInFailure } from './failures.js';

/** How long one request to the provider may take. */
const TIMEOUT_SECONDS = 10;
/** The provider's metadata is asked for again after an hour (its keys are followed more closely). */
const METADATA_TTL_MS = 60 * 60 * 1000;
/** openid-client uses a cached key set younger than this (seconds), and refetches an older one. */
const KEYS_FRESH_SECONDS = 300;
/** A cached key set at least this old is fetched again, once, when a token names a key not in it. */
const KEYS_REFETCH_AGE_SECONDS = 60;

/** What Flagpole holds of one provider: its metadata, and the key set it signs with, as last fetched. */
interface Provider {
  server: client.ServerMetadata;
  keys?: client.ExportedJWKSCache;
}

function isHttp(url: string): boolean {
  return new URL(url).protocol === 'http:';
}

function unreachable(settings: OidcSettings, error: unknown): SignInFailure {
  // openid-client wraps what it does not know (a refused target, a network error) in its cause.
  const cause = (error as { cause?: unknown }).cause;
  const root = cause instanceof Error ? cause : error;
  const why = root instanceof Error ? root.message : String(root);
  return new SignInFailure(
    'provider-unreachable',
    `Flagpole cannot reach the OpenID Connect provider at ${new URL(settings.discoverUrl!).origin}: try again later, or ask an Admin to check the discovery URL in the OIDC settings.`,
    `discovery of ${settings.discoverUrl} failed: ${why}`,
  );
}

async function discover(settings: OidcSettings, fetcher: client.CustomFetch): Promise<Provider> {
  const url = settings.discoverUrl!;
  try {
    const config = await client.discovery(new URL(url), settings.clientId, undefined, undefined, {
      [client.customFetch]: fetcher,
      timeout: TIMEOUT_SECONDS,
      execute: isHttp(url) ? [client.allowInsecureRequests] : [],
    });
    // Plain data only: each sign-in makes its own client from it (see `client`).
    return { server: JSON.parse(JSON.stringify(config.serverMetadata())) };
  } catch (error) {
    throw unreachable(settings, error);
  }
}

/** Why the settings cannot be used at all, before any request. */
function settingsProblem(settings: OidcSettings): string | null {
  if (!settings.discoverUrl) return 'no discovery URL (`discoverUrl`) is set';
  if (!settings.clientId) return 'no client id (`clientId`) is set';
  if (!settings.secret) return 'no client secret (`secret`) is set';
  return null;
}

/** One sign-in's client of the provider, and what it started from. */
export interface SignInClient {
  config: client.Configuration;
  provider: Provider;
  /** The `uat` of the key set handed to it; another one after the sign-in means it fetched the keys anew. */
  keysGiven: number | undefined;
}

/**
 * The OpenID providers sign-in talks to, by discovery URL: each discovered once and kept for an
 * hour (a discovery URL that fails is asked again at the next sign-in), with the key set it signs
 * with. Settings are not kept here: each sign-in brings the current ones.
 */
export class OidcProviders {
  private readonly providers = new LRUCache<string, Promise<Provider>>({ max: 8, ttl: METADATA_TTL_MS });

  /** `fetcher` makes every request to a provider (`outboundFetch`: under the rule for Flagpole's own requests). */
  constructor(private readonly fetcher: client.CustomFetch) {}

  private provider(settings: OidcSettings, fresh = false): Promise<Provider> {
    const url = settings.discoverUrl!;
    const cached = fresh ? undefined : this.providers.get(url);
    if (cached) return cached;
    const pending = discover(settings, this.fetcher);
    this.providers.set(url, pending);
    pending.catch(() => {
      if (this.providers.get(url) === pending) this.providers.delete(url);
    });
    return pending;
  }

  /**
   * Whether sign-in with these settings can work now: null when the provider answers discovery,
   * else why not. It asks afresh, and the answer serves the sign-ins that follow.
   */
  async probe(settings: OidcSettings): Promise<string | null> {
    const problem = settingsProblem(settings);
    if (problem) return problem;
    try {
      await this.provider(settings, true);
      return null;
    } catch (error) {
      return error instanceof SignInFailure
        ? `the provider did not answer discovery (${error.detail})`
        : String(error);
    }
  }

  /**
   * A client of the provider for one sign-in or sign-out. Each has its own copy of the metadata,
   * and so its own view of the key set: handed the one last fetched, aged so that a token signed
   * with a key that is not in it makes it fetch the keys once more (the provider rotated them).
   */
  async client(settings: OidcSettings): Promise<SignInClient> {
    const problem = settingsProblem(settings);
    if (problem) {
      throw new SignInFailure(
        'provider-unreachable',
        'OpenID Connect sign-in is not set up completely: ask an Admin to check the OIDC settings.',
        problem,
      );
    }
    const provider = await this.provider(settings);
    const secret = settings.secret;
    const methods = provider.server.token_endpoint_auth_methods_supported;
    const auth =
      !methods || methods.includes('client_secret_basic')
        ? client.ClientSecretBasic(secret)
        : client.ClientSecretPost(secret);
    const config = new client.Configuration(
      provider.server,
      settings.clientId,
      { id_token_signed_response_alg: settings.idTokenSigningAlgorithm ?? 'RS256' },
      auth,
    );
    config[client.customFetch] = this.fetcher;
    config.timeout = TIMEOUT_SECONDS;
    if (isHttp(settings.discoverUrl!)) client.allowInsecureRequests(config);
    // The ID token comes over the back channel, where checking its signature is optional: it is checked.
    client.enableNonRepudiationChecks(config);
    const now = Math.floor(Date.now() / 1000);
    let keysGiven: number | undefined;
    if (provider.keys && now - provider.keys.uat < KEYS_FRESH_SECONDS) {
      keysGiven = Math.min(provider.keys.uat, now - KEYS_REFETCH_AGE_SECONDS);
      client.setJwksCache(config, { jwks: provider.keys.jwks, uat: keysGiven });
    }
    return { config, provider, keysGiven };
  }

  /** After a sign-in: the key set it fetched, if it did, serves the next ones. */
  keepKeys({ config, provider, keysGiven }: SignInClient): void {
    const keys = client.getJwksCache(config);
    if (keys && keys.uat !== keysGiven) provider.keys = structuredClone(keys);
  }
}
