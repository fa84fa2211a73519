import type { AppContext } from '../app-context.js';
import type { Queryable } from '../db/database.js';
import type { ReadOptions } from '../db/lock.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor } from '../http/identity.js';
import { findRoles } from '../roles/queries.js';
import { randomHex } from '../secrets.js';
import { findUsers } from '../users/queries.js';
import { createUser, describeUser } from '../users/service.js';
import { cappedExpiry, isUsable } from './expiry.js';
import {
  addTokenUser,
  findToken,
  insertToken,
  listTokens,
  type SignupTokenRow,
  updateToken,
  userIdsOfTokens,
} from './store.js';

/** An invite link with the role it gives. */
export type SignupToken = Omit<SignupTokenRow, 'roleId'> & {
  role: { id: number; name: string; type: string };
};

export interface TokenUser {
  id: number;
  name: string | null;
  username: string | null;
}

/** The tokens with their roles (a token whose role is gone is left out). */
async function withRoles(db: Queryable, rows: SignupTokenRow[]): Promise<SignupToken[]> {
  const roles = new Map((await findRoles(db, [...new Set(rows.map((r) => r.roleId))])).map((r) => [r.id, r]));
  return rows.flatMap(({ roleId, ...token }) => {
    const role = roles.get(roleId);
    return role ? [{ ...token, role: { id: role.id, name: role.name, type: role.type } }] : [];
  });
}

async function findSignupToken(
  db: Queryable,
  secret: string,
  options?: ReadOptions,
): Promise<SignupToken | null> {
  const row = await findToken(db, secret, options);
  return row ? ((await withRoles(db, [row]))[0] ?? null) : null;
}

/** The users who signed up with each of the tokens (all when `secrets` is null), earliest first. */
async function usersOfTokens(db: Queryable, secrets: string[] | null): Promise<Map<string, TokenUser[]>> {
  const ids = await userIdsOfTokens(db, secrets);
  const users = new Map((await findUsers(db, [...new Set([...ids.values()].flat())])).map((u) => [u.id, u]));
  return new Map(
    [...ids].map(([secret, list]) => [
      secret,
      list.flatMap((id) => {
        const u = users.get(id);
        return u ? [{ id, name: u.name, username: u.username }] : [];
      }),
    ]),
  );
}

const VIEWER_ROLE = 3;

function describeToken(ctx: AppContext, token: SignupToken, users: TokenUser[]) {
  return {
    secret: token.secret,
    url: `${ctx.config.unleashUrl}/new-user?invite=${token.secret}`,
    name: token.name,
    enabled: isUsable(token, new Date()),
    expiresAt: token.expiresAt,
    createdAt: token.createdAt,
    createdBy: token.createdBy,
    role: token.role,
    users,
  };
}

/** Audit events are readable by more people than invite links: they name the token, never its secret. */
function eventData(token: SignupToken) {
  return {
    id: token.id,
    name: token.name,
    enabled: isUsable(token, new Date()),
    expiresAt: token.expiresAt,
    createdAt: token.createdAt,
    createdBy: token.createdBy,
    role: token.role,
  };
}

async function getToken(db: Queryable, secret: string, options?: ReadOptions): Promise<SignupToken> {
  const token = await findSignupToken(db, secret, options);
  if (!token) throw new NotFoundError('There is no invite link with that secret.');
  return token;
}

export async function createSignupToken(
  ctx: AppContext,
  actor: Actor,
  input: { name: string; expiresAt: string },
) {
  const secret = randomHex(16);
  return ctx.db.transaction(async (tx) => {
    await insertToken(tx, {
      secret,
      name: input.name,
      expiresAt: cappedExpiry(new Date(input.expiresAt), new Date()),
      roleId: VIEWER_ROLE,
      createdBy: actor.name,
    });
    const token = (await findSignupToken(tx, secret))!;
    recordEvent(tx, actor, { type: 'public-signup-token-created', data: eventData(token) });
    return describeToken(ctx, token, []);
  });
}

export async function readSignupTokens(ctx: AppContext) {
  const [tokens, users] = await Promise.all([
    listTokens(ctx.db).then((rows) => withRoles(ctx.db, rows)),
    usersOfTokens(ctx.db, null),
  ]);
  return { tokens: tokens.map((t) => describeToken(ctx, t, users.get(t.secret) ?? [])) };
}

export async function readSignupToken(ctx: AppContext, secret: string) {
  const token = await getToken(ctx.db, secret);
  const users = await usersOfTokens(ctx.db, [secret]);
  return describeToken(ctx, token, users.get(secret) ?? []);
}

/** A new expiry is held to one month from now, as on creation. */
export async function updateSignupToken(
  ctx: AppContext,
  actor: Actor,
  secret: string,
  input: { expiresAt?: string; enabled?: boolean },
) {
  if (input.expiresAt === undefined && input.enabled === undefined) {
    throw new ValidationError('Send `expiresAt`, `enabled` or both: there is nothing to change.', [
      { path: 'body', message: 'Give expiresAt or enabled.' },
    ]);
  }
  return ctx.db.transaction(async (tx) => {
    const before = await getToken(tx, secret, { lock: 'update' });
    await updateToken(tx, secret, {
      expiresAt:
        input.expiresAt !== undefined
          ? cappedExpiry(new Date(input.expiresAt), new Date())
          : before.expiresAt,
      enabled: input.enabled ?? before.enabled,
    });
    const after = (await findSignupToken(tx, secret))!;
    recordEvent(tx, actor, {
      type: 'public-signup-token-updated',
      data: eventData(after),
      preData: eventData(before),
    });
    const users = await usersOfTokens(tx, [secret]);
    return describeToken(ctx, after, users.get(secret) ?? []);
  });
}

async function usableToken(db: Queryable, secret: string, options?: ReadOptions): Promise<SignupToken> {
  const token = await findSignupToken(db, secret, options);
  if (!token || !isUsable(token, new Date())) {
    throw new ValidationError(
      'This invite link is not valid: it does not exist, was disabled or has expired. Ask an administrator for a new one.',
    );
  }
  return token;
}

export async function validateSignupToken(ctx: AppContext, secret: string): Promise<void> {
  await usableToken(ctx.db, secret);
}

export interface InvitedUser {
  email: string;
  name: string;
  password: string;
  username?: string;
}

/** The new user gets the link's role (always Viewer) and is listed among those who joined with it. */
export async function signUp(ctx: AppContext, secret: string, input: InvitedUser) {
  const { role } = await usableToken(ctx.db, secret);
  const actor: Actor = { name: input.username?.trim() || input.email.trim(), userId: null };
  const user = await createUser(ctx, actor, { ...input, rootRole: role.id }, async (tx, created) => {
    // Checked again inside the transaction, and held as checked until it commits: the link may
    // have been disabled meanwhile, and must not be while the user joins with it.
    const token = await usableToken(tx, secret, { lock: 'share' });
    await addTokenUser(tx, secret, created.id);
    recordEvent(
      tx,
      { name: actor.name, userId: created.id },
      {
        type: 'public-signup-token-user-added',
        data: {
          tokenId: token.id,
          tokenName: token.name,
          userId: created.id,
          username: created.username,
          email: created.email,
        },
      },
    );
  });
  return describeUser(user);
}
