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
