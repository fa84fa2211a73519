import type { AppContext } from '../app-context.js';
import type { Database, Transaction } from '../db/database.js';
import { shareCommits } from '../db/group-commit.js';
import type { Identity } from '../http/identity.js';
import { assertPermission } from '../http/permissions.js';
import type { Change } from './change.js';
import { assertDirectChangeAllowed } from './change-request-guard.js';
import { type Action, CHANGES, type Command, type ResultOf } from './commands.js';

export type ChangeListener = (command: Command) => void;

// Per database, as the revision is: every app on one database sees the changes made through it.
const listeners = new WeakMap<Database, Set<ChangeListener>>();

/** Calls `listener` with every command applied on `db` from now on, once it has committed. */
export function onChangeApplied(db: Database, listener: ChangeListener): () => void {
  const set = listeners.get(db) ?? new Set();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * The one way a flag's configuration changes: the command's permission is checked in the scope it
 * names, and so are the change requests its environments may require (`change-request-guard.ts`);
 * then its change validates, writes in one transaction and records its audit event (which moves
 * the revision every cache follows). Concurrent changes commit together (`shareCommits`).
 */
export async function applyChange<A extends Action>(
  ctx: AppContext,
  identity: Identity,
  command: Command<A>,
): Promise<ResultOf<A>> {
  const kind = CHANGES[command.action] as unknown as Change<Command<A>, ResultOf<A>>;
  assertPermission(identity, kind.permission, kind.scope(command, ctx));
  assertDirectChangeAllowed(ctx, identity, command as Command);
  const result = await shareCommits(() => kind.run(ctx, identity, command));
  tellListeners(ctx, [command as Command]);
  return result;
}

/** An approved change request, as the applier asks for it within its transaction. */
export interface ApprovedChanges {
  /** Its changes, read (and the request locked and checked) inside the transaction. */
  commands(tx: Transaction): Promise<readonly Command[]>;
  /** What records it applied, in the same transaction after its changes. */
  applied(tx: Transaction): Promise<void>;
}

/**
 * Applies the changes of an approved change request: all of them in one transaction, or none. Their
 * permissions and the environment's change requests are not asked again: the request's approval
 * and the caller's right to apply it (checked in `commands`) stand for them.
 */
export async function applyApprovedChanges(
  ctx: AppContext,
  identity: Identity,
  request: ApprovedChanges,
): Promise<void> {
  await ctx.db.atomically(async () => {
    const list = await ctx.db.transaction((tx) => request.commands(tx));
    for (const command of list) {
      const kind = CHANGES[command.action] as unknown as Change<Command, unknown>;
      await kind.run(ctx, identity, command);
    }
    await ctx.db.transaction(async (tx) => {
      await request.applied(tx);
      // Once the whole committed (a scheduled request's job commits after this returns), and outside
      // it: what listeners start later must not find themselves inside a transaction that ended.
      tx.afterCommit(() => tellListeners(ctx, list));
    });
  });
}

function tellListeners(ctx: AppContext, commands: readonly Command[]): void {
  // The changes have committed: a listener that fails must not turn their answer into an error.
  for (const command of commands) {
    for (const listener of listeners.get(ctx.db) ?? []) {
      try {
        listener(command);
      } catch (error) {
        ctx.log.error({ err: error, action: command.action }, 'a listener of applied changes failed');
      }
    }
  }
}

/** The permission a route that applies `action` declares: the same as the applier checks. */
export function permissionOf(action: Action) {
  return CHANGES[action].permission;
}
