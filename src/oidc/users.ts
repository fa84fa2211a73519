import type { AppContext } from '../app-context.js';
import { NameExistsError, ValidationError } from '../http/errors.js';
import { SYSTEM_ACTOR } from '../http/identity.js';
import type { OidcSettings } from '../settings/schemas.js';
import { createUser } from '../users/service.js';
import { findUserByEmail, type User } from '../users/store.js';
import { SignInFailure } from './failures.js';

/** What the provider says about the person signing in. */
export interface SignedInPerson {
  email: unknown;
  emailVerified: unknown;
  name: unknown;
}

/** `emailDomains` as a list of lower-case domains; empty when every domain may be created. */
function domainsOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter((d) => d.length > 0);
}

/** The whole domain must match: `example.com` lets in `a@example.com`, not `a@evilexample.com`. */
function inDomains(email: string, domains: string[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.includes(domain);
}

const ASK_AN_ADMIN = 'Ask an Admin of this Flagpole to invite you, then sign in again.';

/**
 * The user a sign-in through the provider is for: the one with that e-mail address (whatever its
 * case), or, with `autoCreate`, a new one with `defaultRootRole` (Editor unless set) when the
 * address is in `emailDomains` (or that is not set). Users are matched by e-mail only, so an
 * address the provider says it has not verified is refused.
 */
export async function userForPerson(
  ctx: AppContext,
  settings: OidcSettings,
  person: SignedInPerson,
): Promise<User> {
  const email = typeof person.email === 'string' ? person.email.trim() : '';
  if (!email) {
    throw new SignInFailure(
      'no-email',
      'The OpenID Connect provider did not tell Flagpole your e-mail address, which is how Flagpole knows who you are. Ask an Admin to have the provider send the `email` claim.',
      'neither the ID token nor the user info has an `email` claim',
    );
  }
  if (person.emailVerified === false || person.emailVerified === 'false') {
    throw new SignInFailure(
      'email-not-verified',
      `The OpenID Connect provider says your e-mail address ${email} is not verified. Verify it there, then sign in again.`,
      `email_verified is false for ${email}`,
    );
  }
  const found = await findUserByEmail(ctx.db, email);
  if (found) return found;
  if (settings.autoCreate !== true) {
    throw new SignInFailure(
      'not-invited',
      `There is no Flagpole user with the e-mail address ${email}. ${ASK_AN_ADMIN}`,
      `no user has the e-mail address ${email}, and autoCreate is off`,
    );
  }
  const domains = domainsOf(settings.emailDomains);
  if (domains.length > 0 && !inDomains(email, domains)) {
    throw new SignInFailure(
      'domain-not-allowed',
      `Flagpole creates users on their first sign-in only for e-mail addresses at ${domains.join(', ')}, and ${email} is not one. ${ASK_AN_ADMIN}`,
      `${email} is outside emailDomains`,
    );
  }
  const name = typeof person.name === 'string' && person.name.trim() ? person.name.trim() : undefined;
  try {
    return await createUser(ctx, SYSTEM_ACTOR, {
      email,
      name,
      rootRole: settings.defaultRootRole ?? 'Editor',
    });
  } catch (error) {
    // 400: the address is taken (or unusable); 409: it is another user's username.
    if (!(error instanceof ValidationError || error instanceof NameExistsError)) throw error;
    // The same person signing in twice at once: the other sign-in created the user.
    const created = await findUserByEmail(ctx.db, email);
    if (created) return created;
    throw new SignInFailure(
      'no-email',
      `The e-mail address the OpenID Connect provider gave (${email}) is not one Flagpole can use: ${error.message}`,
      `creating a user for ${email} was refused: ${error.message}`,
    );
  }
}
