import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from './database.js';
import { isRetryable } from './errors.js';

/**
 * Group commit: transactions started by concurrent changes run one after another inside one
 * database transaction, which commits them together. They then share its BEGIN and COMMIT, one
 * statement for all their audit events, one revision bump and one catch-up of the caches — most
 * of what a small change costs. Their order is the order they asked in, as it would be one by one.
 *
 * No savepoints: should one of them fail, the group is rolled back and each runs again alone, in
 * order, so every one gets the outcome it would have had without company. A transaction's
 * function may already run twice (a serialization failure is retried), so nothing new is asked
 * of it.
 */

interface Member {
  fn: (tx: Transaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Members taken into one group at most, and for how long a group takes new ones. */
const MAX_MEMBERS = 64;
const MAX_TAKING_MS = 20;

const sharing = new AsyncLocalStorage<true>();

/** Runs `fn` with its transactions allowed to commit together with other changes'. */
export function shareCommits<T>(fn: () => Promise<T>): Promise<T> {
  return sharing.run(true, fn);
}

/** Whether the caller asked to share its commits (the command applier does, for every change). */
export function sharesCommits(): boolean {
  return sharing.getStore() === true;
}

export class CommitGroups {
  private readonly queue: Member[] = [];
  private draining = false;

  constructor(
    /** One transaction running `fn`, with the database's retry. */
    private readonly runAlone: <T>(fn: (tx: Transaction) => Promise<T>) => Promise<T>,
  ) {}

  add<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // Requests read in this turn of the loop join the first group: on the embedded database
        // statements hold the loop, so that is when concurrent changes arrive.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.runGroup();
    } finally {
      this.draining = false;
    }
  }

  private async runGroup(): Promise<void> {
    const members: Member[] = [];
    let memberFailed = false;
    let results: unknown[];
    try {
      results = await this.runAlone(async (tx) => {
        members.length = 0;
        const values: unknown[] = [];
        const until = performance.now() + MAX_TAKING_MS;
        // Changes that arrive while earlier ones run join the group (on PostgreSQL the loop is
        // free during statements).
        while (members.length < MAX_MEMBERS && performance.now() < until) {
          const next = members.length < this.queue.length ? this.queue[members.length] : undefined;
          if (!next) break;
          members.push(next);
          try {
            values.push(await next.fn(tx));
          } catch (error) {
            memberFailed = true;
            throw error;
          }
        }
        return values;
      });
    } catch (error) {
      this.queue.splice(0, members.length);
      // Past the members' own work (the audit events, the revision, COMMIT itself) the outcome
      // may be unknown: running them again could apply them twice. Each gets the error, as a
      // transaction of its own would have.
      if (!memberFailed && !isRetryable(error)) {
        for (const member of members) member.reject(error);
        return;
      }
      for (const member of members) {
        try {
          member.resolve(await this.runAlone(member.fn));
        } catch (error) {
          member.reject(error);
        }
      }
      return;
    }
    this.queue.splice(0, members.length);
    for (const [i, member] of members.entries()) member.resolve(results[i]);
  }
}
