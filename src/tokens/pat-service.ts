import type { AppContext } from '../app-context.js';
import { recordEvent } from '../events/service.js';
import { NameExistsError, NoAccessError, NotFoundError, ValidationError } from '../http/errors.js';
import type { Actor, Identity } from '../http/identity.js';
import { hashSecret } from '../secrets.js';
import { findUser } from '../users/queries.js';
import { newPatSecret } from './credentials.js';
import { deletePat, findPat, insertPat, listPats, type Pat } from './store.js';

const MAX_PATS_PER_USER = 10;

function describePat(p: Pat, secret?: string) {
  return {
    id: p.id,
    ...(secret ? { secret } : {}),
    description: p.description,
    userId: p.userId,
    createdAt: p.createdAt,
    expiresAt: p.expiresAt,
    seenAt: p.seenAt,
  };
}

function patOwner(identity: Identity): number {
  if (identity.kind !== 'user') {
    throw new NoAccessError(
      'Personal access tokens belong to a user: sign in, or use a personal access token.',
    );
  }
  return identity.userId;
}

export async function createPat(
  ctx: AppContext,
  identity: Identity,
  actor: Actor,
  input: { description: string; expiresAt: string },
) {
  const userId = patOwner(identity);
  const description = input.description.trim();
  if (!description) {
    throw new ValidationError('The token needs a description.', [
      { path: 'description', message: 'Must not be empty.' },
    ]);
  }
  const expiresAt = new Date(input.expiresAt);
  if (expiresAt.getTime() <= Date.now()) {
    throw new ValidationError('`expiresAt` must be in the future.', [
      { path: 'expiresAt', message: 'Past date.' },
    ]);
  }
  return ctx.db.transaction(async (tx) => {
    // The owner's row locked: the PATs of one user are counted and added one request at a time (a
    // lock on the PATs themselves would not stop a new one being inserted).
    if (!(await findUser(tx, userId, { lock: 'update' }))) {
      throw new NotFoundError(`There is no user with id ${userId}.`);
    }
    const existing = await listPats(tx, userId);
    if (existing.some((p) => p.description === description)) {
      throw new NameExistsError(`You already have a personal access token described "${description}".`);
    }
    if (existing.filter((p) => p.expiresAt.getTime() > Date.now()).length >= MAX_PATS_PER_USER) {
      throw new ValidationError(
        `You can hold at most ${MAX_PATS_PER_USER} personal access tokens: delete one before making another.`,
      );
    }
    const secret = newPatSecret();
    const pat = await insertPat(tx, { secretHash: hashSecret(secret), description, userId, expiresAt });
    recordEvent(tx, actor, {
      type: 'pat-created',
      data: { id: pat.id, description, userId, expiresAt },
    });
    return describePat(pat, secret);
  });
}

export async function listPatsOf(ctx: AppContext, identity: Identity) {
  const pats = await listPats(ctx.db, patOwner(identity));
  return { pats: pats.map((p) => describePat(p)) };
}

export async function removePat(
  ctx: AppContext,
  identity: Identity,
  actor: Actor,
  id: number,
): Promise<void> {
  const userId = patOwner(identity);
  await ctx.db.transaction(async (tx) => {
    const pat = await findPat(tx, userId, id, { lock: 'exclusive' });
    if (!pat) throw new NotFoundError(`You have no personal access token with id ${id}.`);
    await deletePat(tx, userId, id);
    recordEvent(tx, actor, { type: 'pat-deleted', data: { id, description: pat.description, userId } });
  });
}
