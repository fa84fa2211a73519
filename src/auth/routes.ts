import type { AppContext } from '../app-context.js';
import { limitPerAddress, WindowCounter } from '../http/rate-limit.js';
import type { App } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import {
  clearedSessionCookie,
  endSession,
  parseCookies,
  SESSION_COOKIE,
  sessionCookie,
} from '../identity/sessions.js';
import { singleSignOutUrl } from '../oidc/service.js';
import { hashSecret } from '../secrets.js';
import { assertStrongPassword } from '../users/password.js';
import { UserSchema } from '../users/schemas.js';
import { currentUser, describeUser } from '../users/service.js';
import { LoginLimiter } from './login-limiter.js';
import { requestResetEmail, resetPassword, validateResetToken } from './reset-service.js';
import { resolveIdentity } from './resolve-identity.js';
import {
  ChangePasswordBody,
  EmailBody,
  LoginBody,
  LogoutAnswer,
  ResetTokenUser,
  ResetValidateQuery,
  SessionAnswer,
  ValidatePasswordBody,
} from './schemas.js';
import { login } from './service.js';

// A reset link is opened, then a new password sent, maybe again after a refusal: a person needs a
// handful. The limit keeps a script from trying tokens or loading the server from one address.
const RESET_LIMIT = { max: 30, windowMs: 10 * 60 * 1000 };
// A reset form checks the password as it is typed: many checks, each costing next to nothing.
const VALIDATE_PASSWORD_LIMIT = { max: 120, windowMs: 10 * 60 * 1000 };
// One request per e-mail address is recorded in this window; more are answered alike and dropped,
// so that nobody can fill the audit log with one account's requests.
const RESET_EMAIL_QUIET = { max: 1, windowMs: 15 * 60 * 1000 };

export function authRoutes(app: App, ctx: AppContext): void {
  const limiter = new LoginLimiter();
  // One count for both reset paths: they are two steps of one thing.
  const resetLimit = limitPerAddress(RESET_LIMIT, 'password-reset requests');
  const validateLimit = limitPerAddress(VALIDATE_PASSWORD_LIMIT, 'password checks');
  const resetEmails = new WindowCounter(RESET_EMAIL_QUIET);
  const secureCookie = ctx.config.unleashUrl.startsWith('https://');

  app.post(
    '/auth/simple/login',
    {
      config: { sameOriginOnly: true },
      schema: {
        tags: ['Auth'],
        summary: 'Sign in with username (or email) and password; sets the session cookie',
        body: LoginBody,
        response: { 200: UserSchema },
        security: [],
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await login(ctx, limiter, { ...request.body, address: request.ip });
      reply.header('set-cookie', sessionCookie(sessionId, secureCookie));
      return describeUser(user);
    },
  );

  // The web UI asks this first: a signed-out browser learns how to sign in from a 200, where the
  // 401 of /api/admin/user was logged as a failed request in the console of every signed-out load.
  app.get(
    '/auth/session',
    {
      schema: {
        tags: ['Auth'],
        summary: 'Whether the session cookie names a user; if not, the ways to sign in',
        response: { 200: SessionAnswer },
        security: [],
      },
    },
    async (request) => {
      const identity = await resolveIdentity(ctx.db, ctx.identityCache, { cookie: request.headers.cookie });
      // Who is signed in, as /api/admin/user says it: the UI's first screen waits for one answer, not two.
      if (identity) return { signedIn: true, me: await currentUser(ctx, identity) };
      const { defaultHidden, options } = ctx.signIn.describe();
      return { signedIn: false, defaultHidden, options };
    },
  );

  app.post(
    '/logout',
    {
      config: { sameOriginOnly: true },
      schema: {
        tags: ['Auth'],
        summary: 'End the current session',
        description:
          'With single sign-out (OIDC `enableSingleSignOut`) and a session begun through the provider, the user is signed out there too: ' +
          "a browser's form post is redirected to the provider's end-session endpoint, any other caller is told where to go in `redirect`. " +
          'Otherwise a form post is redirected to `/` and any other caller gets no body.',
        response: { 200: LogoutAnswer, 302: { description: 'A form post: on to the provider, or to `/`' } },
      },
    },
    async (request, reply) => {
      const sessionId = parseCookies(request.headers.cookie)[SESSION_COOKIE];
      const ended = sessionId
        ? await ctx.db.transaction((tx) => endSession(tx, hashSecret(sessionId)))
        : { idToken: null };
      const provider = await singleSignOutUrl(ctx, ctx.oidc, ended.idToken);
      reply.header('set-cookie', clearedSessionCookie(secureCookie));
      // A form posted by a page: the browser follows, and lands somewhere useful.
      if (request.headers['sec-fetch-mode'] === 'navigate') return reply.redirect(provider ?? '/', 302);
      return provider ? { redirect: provider } : reply.send();
    },
  );

  app.get(
    '/auth/reset/validate',
    {
      onRequest: resetLimit,
      schema: {
        tags: ['Auth'],
        summary: 'Whom a reset token belongs to, if it can still be used',
        querystring: ResetValidateQuery,
        response: { 200: ResetTokenUser },
        security: [],
      },
    },
    async (request) => validateResetToken(ctx, request.query.token),
  );

  app.post(
    '/auth/reset/password',
    {
      onRequest: resetLimit,
      schema: {
        tags: ['Auth'],
        summary: 'Set a new password with a reset token',
        body: ChangePasswordBody,
        response: { 200: NoContent },
        security: [],
      },
    },
    async (request, reply) => {
      await resetPassword(ctx, request.body.token, request.body.password);
      return reply.send();
    },
  );

  app.post(
    '/auth/reset/validate-password',
    {
      onRequest: validateLimit,
      schema: {
        tags: ['Auth'],
        summary: 'Whether a password meets the password rules',
        description:
          '200 when it does; otherwise 400 `ValidationError` with one `details` entry per rule it breaks.',
        body: ValidatePasswordBody,
        response: { 200: NoContent },
        security: [],
      },
    },
    async (request, reply) => {
      assertStrongPassword(request.body.password);
      return reply.send();
    },
  );

  app.post(
    '/auth/reset/password-email',
    {
      onRequest: resetLimit,
      schema: {
        tags: ['Auth'],
        summary: 'Ask for a password reset for the account of an e-mail address',
        description:
          'Always 200, whether or not an account has the address. Flagpole sends no e-mail: the request is recorded ' +
          '(event `user-password-reset-requested`) so that an Admin can make a reset link. At most one request per address is recorded in 15 minutes.',
        body: EmailBody,
        response: { 200: NoContent },
        security: [],
      },
    },
    async (request, reply) => {
      const key = request.body.email.trim().toLowerCase();
      if (resetEmails.retryAfter(key) === 0) {
        resetEmails.count(key);
        await requestResetEmail(ctx, request.body.email);
      }
      return reply.send();
    },
  );
}
