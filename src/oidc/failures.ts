import * as client from 'openid-client';
import { TargetRefusedError } from '../outbound/targets.js';

/**
 * Why a sign-in through OpenID Connect did not happen, as the browser is told (a page with the
 * code and a sentence) and the log records it (at warn, with `detail`, never a secret).
 */
export type FailureCode =
  | 'oidc-disabled'
  | 'bad-redirect'
  | 'too-many-attempts'
  | 'provider-unreachable'
  | 'client-rejected'
  | 'provider-refused'
  | 'state-mismatch'
  | 'login-used'
  | 'login-expired'
  | 'invalid-token'
  | 'no-email'
  | 'email-not-verified'
  | 'domain-not-allowed'
  | 'not-invited'
  | 'account-linked'
  | 'secret-unreadable';

const STATUS: Record<FailureCode, number> = {
  'oidc-disabled': 404,
  'bad-redirect': 400,
  'too-many-attempts': 429,
  'provider-unreachable': 502,
  'client-rejected': 502,
  'provider-refused': 403,
  'state-mismatch': 400,
  'login-used': 400,
  'login-expired': 400,
  'invalid-token': 502,
  'no-email': 403,
  'email-not-verified': 403,
  'domain-not-allowed': 403,
  'not-invited': 403,
  'account-linked': 403,
  'secret-unreadable': 500,
};

export class SignInFailure extends Error {
  override name = 'SignInFailure';
  readonly status: number;

  constructor(
    readonly code: FailureCode,
    /** For the person signing in: what happened and what to do. */
    message: string,
    /** For the log: what exactly failed (a provider's error code, a check's message). */
    readonly detail?: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

/** openid-client's codes for a provider that answered, but not as a provider answers. */
const UNREACHABLE_CODES = new Set([
  'OAUTH_RESPONSE_IS_NOT_CONFORM',
  'OAUTH_RESPONSE_IS_NOT_JSON',
  'OAUTH_TIMEOUT',
  'OAUTH_ABORT',
]);

function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** What went wrong talking to the provider, for the browser and the log (never a secret). */
export function describeProviderError(error: unknown): SignInFailure {
  if (error instanceof SignInFailure) return error;
  if (error instanceof client.AuthorizationResponseError) {
    const why = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
    return new SignInFailure(
      'provider-refused',
      `The OpenID Connect provider did not sign you in (${why}).`,
      `the provider answered the callback with an error: ${why}`,
    );
  }
  const oauthError =
    error instanceof client.ResponseBodyError
      ? error.error
      : error instanceof client.WWWAuthenticateChallengeError
        ? 'invalid_client'
        : undefined;
  if (oauthError === 'invalid_client' || oauthError === 'unauthorized_client') {
    return new SignInFailure(
      'client-rejected',
      'The OpenID Connect provider refused Flagpole itself (its client id or secret). Ask an Admin to check the OIDC settings.',
      `the token endpoint refused the client: ${oauthError}`,
    );
  }
  if (oauthError !== undefined) {
    return new SignInFailure(
      'provider-refused',
      `The OpenID Connect provider refused to complete the sign-in (${oauthError}). Start again from the sign-in page.`,
      `the token endpoint answered ${oauthError}`,
    );
  }
  const code = errorCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  // What openid-client does not know (a refused target, a network error) it wraps in its cause.
  const cause = (error as { cause?: unknown }).cause;
  const root = cause instanceof Error ? cause : error;
  const rootCode = errorCodeOf(root);
  const unreachable =
    root instanceof TargetRefusedError ||
    root instanceof TypeError ||
    (root instanceof Error && (root.name === 'TimeoutError' || root.name === 'AbortError')) ||
    (rootCode !== undefined && 'syscall' in (root as object)) ||
    (code !== undefined && UNREACHABLE_CODES.has(code));
  if (unreachable) {
    const why = root instanceof Error ? root.message : message;
    return new SignInFailure(
      'provider-unreachable',
      'Flagpole could not complete the sign-in with the OpenID Connect provider: it did not answer as it should. Try again later, or ask an Admin to check the OIDC settings.',
      rootCode && !why.includes(rootCode) ? `${why} (${rootCode})` : why,
    );
  }
  // openid-client wraps what failed (a signature, a claim) in a general error.
  const inner = root !== error && root instanceof Error ? root.message : undefined;
  const why = inner && inner !== message ? `${message} (${inner})` : message;
  return new SignInFailure(
    'invalid-token',
    'The OpenID Connect provider sent an answer Flagpole does not trust (its ID token did not pass the checks). Ask an Admin to check the OIDC settings.',
    `${code ? `${code}: ` : ''}${why}`,
  );
}
