import type { AppContext } from '../app-context.js';
import { NameExistsError, ValidationError } from '../http/errors.js';
import { SYSTEM_ACTOR } from '../http/identity.js';
import type { OidcSettings } from '../settings/schemas.js';
import { findUser, findUserByEmail, type User } from '../users/queries.js';
import { createUser } from '../users/service.js';
import { SignInFailure } from './failures.js';
import { bindSubject, findBoundUserId } from './store.js';

/** What the provider says about the person signing in. */
export interface SignedInPerson {
  /** The ID token's issuer and subject: who the person is at the provider, for good. */
  issuer: string;
  subject: string;
  email: unknown;
  emailVerified: unknown;
  name: unknown;
}

/** `emailDomains` as a list of lower-case domains; empty when every domain is let in. */
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

/** Whether the provider says the address is verified; some send the claim as a string. */
function saysVerified(value: unknown): boolean | null {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

/**
 * The address a person may be linked or created by: given, said to be verified (unless an Admin
 * turned `requireEmailVerified` off: then only an address said to be unverified is refused), and
 * at one of `emailDomains` when that is set.
 */
function linkableEmail(settings: OidcSettings, person: SignedInPerson): string {
  const email = typeof person.email === 'string' ? person.email.trim() : '';
  if (!email) {
    throw new SignInFailure(
      'no-email',
      'The OpenID Connect provider did not tell Flagpole your e-mail address, which is how Flagpole knows who you are. Ask an Admin to have the provider send the `email` claim.',
      'neither the ID token nor the user info has an `email` claim',
    );
  }
  const verified = saysVerified(person.emailVerified);
  if (verified === false || (verified === null && settings.requireEmailVerified !== false)) {
    throw new SignInFailure(
      'email-not-verified',
      verified === false
        ? `The OpenID Connect provider says your e-mail address ${email} is not verified. Verify it there, then sign in again.`
        : `The OpenID Connect provider did not say that your e-mail address ${email} is verified, and Flagpole links people to users by verified addresses only. Verify it there, or ask an Admin.`,
      verified === false
        ? `email_verified is false for ${email}`
        : `email_verified is missing for ${email}, and requireEmailVerified is on`,
    );
  }
  const domains = domainsOf(settings.emailDomains);
  if (domains.length > 0 && !inDomains(email, domains)) {
    throw new SignInFailure(
      'domain-not-allowed',
      `Flagpole lets people sign in through the provider only with e-mail addresses at ${domains.join(', ')}, and ${email} is not one. Ask an Admin of this Flagpole.`,
      `${email} is outside emailDomains`,
    );
  }
  return email;
}

function accountLinked(email: string): SignInFailure {
  return new SignInFailure(
    'account-linked',
    `The Flagpole user with the e-mail address ${email} signs in as another account of the OpenID Connect provider. Sign in with that account, or ask an Admin.`,
    `the user with ${email} is bound to another subject of this issuer`,
  );
}

/**
 * Binds the person to the user found by their address and answers the user they are bound to:
 * that one, or the one a sign-in of the same person bound meanwhile. Refused when the user is
 * bound to another person of the provider.
 */
async function bindTo(ctx: AppContext, person: SignedInPerson, user: User, email: string): Promise<User> {
  const userId = await bindSubject(ctx.db, {
    issuer: person.issuer,
    subject: person.subject,
    userId: user.id,
  });
  if (userId === user.id) return user;
  const other = userId === null ? null : await findUser(ctx.db, userId);
  if (!other) throw accountLinked(email);
  return other;
}

/**
 * The user a sign-in through the provider is for. A person (the token's issuer and subject) once
 * linked is that user from then on, whatever address the provider gives later. Otherwise the
 * person is linked by e-mail, which must be verified and at one of `emailDomains` (when set): to
 * the user with that address (whatever its case) unless that user is bound to another person of
 * the provider, or, with `autoCreate`, to a new user with `defaultRootRole` (Editor unless set).
 */
export async function userForPerson(
  ctx: AppContext,
  settings: OidcSettings,
  person: SignedInPerson,
): Promise<User> {
  const boundId = await findBoundUserId(ctx.db, person.issuer, person.subject);
  if (boundId !== null) {
    const user = await findUser(ctx.db, boundId);
    if (user) return user;
  }
  const email = linkableEmail(settings, person);
  const found = await findUserByEmail(ctx.db, email);
  if (found) return bindTo(ctx, person, found, email);
  if (settings.autoCreate !== true) {
    throw new SignInFailure(
      'not-invited',
      `There is no Flagpole user with the e-mail address ${email}. ${ASK_AN_ADMIN}`,
      `no user has the e-mail address ${email}, and autoCreate is off`,
    );
  }
  const name = typeof person.name === 'string' && person.name.trim() ? person.name.trim() : undefined;
  try {
    return await createUser(
      ctx,
      SYSTEM_ACTOR,
      { email, name, rootRole: settings.defaultRootRole ?? 'Editor' },
      async (tx, user) => {
        await bindSubject(tx, { issuer: person.issuer, subject: person.subject, userId: user.id });
      },
    );
  } catch (error) {
    // 400: the address is taken (or unusable); 409: it is another user's username.
    if (!(error instanceof ValidationError || error instanceof NameExistsError)) throw error;
    // The same person signing in twice at once: the other sign-in created the user.
    const created = await findUserByEmail(ctx.db, email);
    if (created) return bindTo(ctx, person, created, email);
    throw new SignInFailure(
      'no-email',
      `The e-mail address the OpenID Connect provider gave (${email}) is not one Flagpole can use: ${error.message}`,
      `creating a user for ${email} was refused: ${error.message}`,
    );
  }
}
