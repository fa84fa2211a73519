import type { AppContext } from '../app-context.js';
import { actorOf } from '../http/identity.js';
import { limitPerAddress } from '../http/rate-limit.js';
import { type App, identityOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import { UserSchema } from '../users/schemas.js';
import {
  CreateSignupTokenBody,
  InvitedUserBody,
  SignupToken,
  SignupTokenList,
  SignupTokenParams,
  UpdateSignupTokenBody,
} from './schemas.js';
import {
  createSignupToken,
  readSignupToken,
  readSignupTokens,
  signUp,
  updateSignupToken,
  validateSignupToken,
} from './service.js';

// Opening an invite link validates it, joining may take a retry or two; a whole office behind one
// address can still join within minutes. The limit keeps a script from creating users (each one a
// password hash) or trying tokens at speed.
const INVITE_LIMIT = { max: 30, windowMs: 10 * 60 * 1000 };

export function signupRoutes(app: App, ctx: AppContext): void {
  const tags = ['Invite links'];
  // One count for both public paths: they are two steps of one thing.
  const inviteLimit = limitPerAddress(INVITE_LIMIT, 'invite-link requests');

  app.post(
    '/api/admin/invite-link/tokens',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Create an invite link; people who join with it get the Viewer root role',
        body: CreateSignupTokenBody,
        response: { 201: SignupToken },
      },
    },
    async (request, reply) => {
      const token = await createSignupToken(ctx, actorOf(identityOf(request)), request.body);
      reply.code(201).header('location', `tokens/${token.secret}`);
      return token;
    },
  );

  app.get(
    '/api/admin/invite-link/tokens',
    {
      config: { permission: 'ADMIN' },
      schema: { tags, summary: 'Every invite link', response: { 200: SignupTokenList } },
    },
    async () => readSignupTokens(ctx),
  );

  app.get(
    '/api/admin/invite-link/tokens/:token',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'One invite link and the users who joined with it',
        params: SignupTokenParams,
        response: { 200: SignupToken },
      },
    },
    async (request) => readSignupToken(ctx, request.params.token),
  );

  app.put(
    '/api/admin/invite-link/tokens/:token',
    {
      config: { permission: 'ADMIN' },
      schema: {
        tags,
        summary: 'Change when an invite link expires, or turn it off and on',
        params: SignupTokenParams,
        body: UpdateSignupTokenBody,
        response: { 200: SignupToken },
      },
    },
    async (request) =>
      updateSignupToken(ctx, actorOf(identityOf(request)), request.params.token, request.body),
  );

  app.get(
    '/invite/:token/validate',
    {
      onRequest: inviteLimit,
      schema: {
        tags,
        summary: 'Whether an invite link can be used (200) or not (400)',
        params: SignupTokenParams,
        response: { 200: NoContent },
        security: [],
      },
    },
    async (request, reply) => {
      await validateSignupToken(ctx, request.params.token);
      return reply.send();
    },
  );

  app.post(
    '/invite/:token/signup',
    {
      onRequest: inviteLimit,
      schema: {
        tags,
        summary: 'Join with an invite link: creates a user with the Viewer root role',
        params: SignupTokenParams,
        body: InvitedUserBody,
        response: { 201: UserSchema },
        security: [],
      },
    },
    async (request, reply) => reply.code(201).send(await signUp(ctx, request.params.token, request.body)),
  );
}
