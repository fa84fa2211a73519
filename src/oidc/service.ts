import { timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { AppContext } from '../app-context.js';
import { createSession } from '../identity/sessions.js';
import { hashSecret, SecretKeyError } from '../secrets.js';
import type { OidcSettings } from '../settings/schemas.js';
import { findOidcSettings } from '../settings/service.js';
import { markChanged } from '../sync/changes.js';
import { recordLoginSuccess } from '../users/writes.js';
import { describeProviderError, SignInFailure } from './failures.js';
import type { OidcProviders } from './provider.js';
import { findPendingLogin, insertPendingLogin, markLoginUsed } from './store.js';
import { userForPerson } from './users.js';

export const LOGIN_PATH = '/auth/oidc/login';
export const CALLBACK_PATH = '/auth/oidc/callback';
/** How long the provider may take to send the browser back. */
export const LOGIN_TTL_SECONDS = 10 * 60;
const SCOPE = 'openid email profile';
const MAX_REDIRECT_LENGTH = 2000;

/** The settings a sign-in goes by, read afresh: so a change on any replica counts at the next one. */
async function enabledSettings(ctx: AppContext): Promise<OidcSettings> {
  let settings: OidcSettings | null;
  try {
    settings = await findOidcSettings(ctx);
  } catch (error) {
    if (!(error instanceof SecretKeyError)) throw error;
    throw new SignInFailure(
      'secret-unreadable',
      'Sign-in with OpenID Connect cannot work now: the client secret Flagpole stored cannot be decrypted. Ask an Admin to save the OIDC settings again.',
      error.message,
    );
  }
  if (settings?.enabled !== true) {
    throw new SignInFailure(
      'oidc-disabled',
      'Sign-in with OpenID Connect is not turned on for this Flagpole. Sign in with your username and password, or ask an Admin.',
      'OIDC is not enabled',
    );
  }
  return settings;
}

/**
 * A path of this site to return to after signing in, as given; null for anything that could lead
 * elsewhere (`//host`, `/\host`, a scheme, control characters) or is too long.
 */
export function sameSitePath(redirect: string): string | null {
  if (redirect.length > MAX_REDIRECT_LENGTH || !redirect.startsWith('/')) return null;
  if (redirect.startsWith('//') || redirect.includes('\\')) return null;
  for (let i = 0; i < redirect.length; i++) {
    const code = redirect.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return null;
  }
  const base = 'http://flagpole.invalid';
  let url: URL;
  try {
    url = new URL(redirect, base);
  } catch {
    return null;
  }
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : null;
}

function callbackUrl(ctx: AppContext): string {
  return `${ctx.config.unleashUrl}${CALLBACK_PATH}`;
}

/**
 * Begins a sign-in: remembers it (its state, nonce and PKCE verifier, where to return) and answers
 * where to send the browser: the provider's authorization endpoint. The browser keeps the state in
 * a cookie, so that the answer coming back is matched to the browser that asked.
 */
export async function startSignIn(
  ctx: AppContext,
  providers: OidcProviders,
  redirect: string | undefined,
): Promise<{ state: string; location: string }> {
  const settings = await enabledSettings(ctx);
  const path = redirect === undefined || redirect === '' ? '/' : sameSitePath(redirect);
  if (path === null) {
    throw new SignInFailure(
      'bad-redirect',
      'The page to return to after signing in must be a path of this Flagpole, such as /projects.',
      'the redirect parameter is not a path of this site',
    );
  }
  const { config } = await providers.client(settings);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  await insertPendingLogin(ctx.db, {
    stateHash: hashSecret(state),
    nonce,
    codeVerifier,
    redirect: path,
    ttlSeconds: LOGIN_TTL_SECONDS,
  });
  const parameters: Record<string, string> = {
    redirect_uri: callbackUrl(ctx),
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  };
  const acr = settings.acrValues?.trim();
  if (acr) parameters.acr_values = acr;
  return { state, location: client.buildAuthorizationUrl(config, parameters).href };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Takes the sign-in the callback's state names, once: a second callback with it is refused. */
async function takeLogin(ctx: AppContext, state: string | null, browserState: string | undefined) {
  if (!state || !browserState || !sameText(state, browserState)) {
    throw new SignInFailure(
      'state-mismatch',
      'This answer from the OpenID Connect provider does not belong to a sign-in begun in this browser. Start again from the sign-in page.',
      !state
        ? 'the callback has no state'
        : !browserState
          ? 'the browser sent no state cookie'
          : "the callback's state is not the browser's",
    );
  }
  const stateHash = hashSecret(state);
  const login = await ctx.db.transaction(async (tx) => {
    const found = await findPendingLogin(tx, stateHash, { lock: 'update' });
    if (found && !found.used && !found.expired) await markLoginUsed(tx, stateHash);
    return found;
  });
  if (!login) {
    throw new SignInFailure(
      'state-mismatch',
      'This answer from the OpenID Connect provider does not belong to any sign-in Flagpole began. Start again from the sign-in page.',
      'no sign-in was begun with this state',
    );
  }
  if (login.used) {
    throw new SignInFailure(
      'login-used',
      'This sign-in was already completed (or tried): an answer from the provider can be used once. Start again from the sign-in page.',
      'the callback of a sign-in already taken came again',
    );
  }
  if (login.expired) {
    throw new SignInFailure(
      'login-expired',
      `This sign-in took longer than ${LOGIN_TTL_SECONDS / 60} minutes. Start again from the sign-in page.`,
      'the callback came after the sign-in expired',
    );
  }
  return login;
}

/**
 * Completes a sign-in from the provider's answer: the sign-in it belongs to (once), the code
 * exchanged for tokens, the ID token checked (issuer, audience, signature with
 * `idTokenSigningAlgorithm`, expiry, nonce), the user found or created, and a session started as
 * a password sign-in starts one, keeping the ID token for single sign-out.
 */
export async function finishSignIn(
  ctx: AppContext,
  providers: OidcProviders,
  query: URLSearchParams,
  browserState: string | undefined,
): Promise<{ sessionId: string; redirect: string }> {
  const settings = await enabledSettings(ctx);
  const state = query.get('state');
  const login = await takeLogin(ctx, state, browserState);
  const signIn = await providers.client(settings);
  const person: {
    issuer?: string;
    subject?: string;
    email?: unknown;
    emailVerified?: unknown;
    name?: unknown;
  } = {};
  let idToken: string;
  try {
    const answer = new URL(`${callbackUrl(ctx)}?${query}`);
    const tokens = await client.authorizationCodeGrant(signIn.config, answer, {
      pkceCodeVerifier: login.codeVerifier,
      expectedState: state!,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    idToken = tokens.id_token!;
    Object.assign(person, {
      issuer: claims.iss,
      subject: claims.sub,
      email: claims.email,
      emailVerified: claims.email_verified,
      name: claims.name,
    });
    // Many providers put only the subject in the ID token; the rest is in the user info.
    if (person.email === undefined && signIn.config.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(signIn.config, tokens.access_token, claims.sub);
      Object.assign(person, {
        email: info.email,
        emailVerified: info.email_verified,
        name: person.name ?? info.name,
      });
    }
  } catch (error) {
    throw describeProviderError(error);
  } finally {
    providers.keepKeys(signIn);
  }
  const user = await userForPerson(ctx, settings, {
    issuer: person.issuer!,
    subject: person.subject!,
    email: person.email,
    emailVerified: person.emailVerified,
    name: person.name,
  });
  const sessionId = await ctx.db.transaction(async (tx) => {
    await recordLoginSuccess(tx, user.id);
    // The user's cached profile shows when they last signed in; their credentials are as they were.
    markChanged(tx, { scopes: ['profiles'] });
    return createSession(tx, user.id, idToken);
  });
  return { sessionId, redirect: login.redirect };
}

/**
 * Where to send the browser to sign out at the provider too, when single sign-out is on and the
 * session came from it: its end-session endpoint with the session's ID token as the hint. Null
 * otherwise; a provider that cannot be asked is logged and the sign-out stays Flagpole's alone.
 */
export async function singleSignOutUrl(
  ctx: AppContext,
  providers: OidcProviders,
  idToken: string | null,
): Promise<string | null> {
  if (!idToken) return null;
  try {
    const settings = await enabledSettings(ctx);
    if (settings.enableSingleSignOut !== true) return null;
    const { config } = await providers.client(settings);
    if (!config.serverMetadata().end_session_endpoint) {
      ctx.log.warn(
        'OIDC single sign-out: the provider has no end_session_endpoint; signed out of Flagpole only',
      );
      return null;
    }
    return client.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: `${ctx.config.unleashUrl}/`,
    }).href;
  } catch (error) {
    const failure = describeProviderError(error);
    if (failure.code !== 'oidc-disabled') {
      ctx.log.warn(
        { code: failure.code, detail: failure.detail },
        'OIDC single sign-out failed; signed out of Flagpole only',
      );
    }
    return null;
  }
}
