import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from './database.js';
import { failedInDeferredWrite, isRetryable } from './errors.js';

/**
 * Group commit: transactions started by concurrent changes run one after another inside one
 * database transaction, which commits them together. They then share its BEGIN and COMMIT, one
 * statement for all their audit events, one revision bump and one catch-up of the caches — most
 * of what a small change costs — and a row several of them change is read and written once (see
 * `Transaction.recall`). Their order is the order they asked in, as it would be one by one.
 *
 * No savepoints: when one of them fails, the group is rolled back; that one gets its error (the
 * outcome it has in that order) and those before it go first in the next group. A transaction's
 * function may already run more than once (a serialization failure is retried), so nothing new is
 * asked of it.
 */

interface Member {
  fn: (tx: Transaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** When it asked (ms, performance clock). */
  at: number;
}

/** Members taken into one group at most, and for how long a group takes new ones. */
const MAX_MEMBERS = 64;
const MAX_TAKING_MS = 20;
/**
 * A change that waited this long while a group ran starts a group of its own beside it (where the
 * database runs transactions side by side): one change held up by a lock does not hold up the
 * process's others.
 */
const STUCK_MS = 50;

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
  private running = 0;
  private watch: NodeJS.Timeout | undefined;

  constructor(
    /** One transaction running `fn`, with the database's retry. */
    private readonly runAlone: <T>(fn: (tx: Transaction) => Promise<T>) => Promise<T>,
    /** Groups at most at once: 1 where the database runs one transaction at a time. */
    private readonly parallel: number,
  ) {}

  add<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject, at: performance.now() });
      if (this.running === 0) {
        this.running++;
        // Requests read in this turn of the loop join the first group: on the embedded database
        // statements hold the loop, so that is when concurrent changes arrive. Groups run outside
        // any caller's context: what their commits start (deliveries, catch-ups) is no change.
        sharing.exit(() => setImmediate(() => void this.drain()));
      } else {
        this.watchQueue();
      }
    });
  }

  private watchQueue(): void {
    if (this.watch || this.running >= this.parallel) return;
    this.watch = sharing.exit(() => setTimeout(() => this.checkQueue(), STUCK_MS));
    this.watch.unref();
  }

  private checkQueue(): void {
    this.watch = undefined;
    const oldest = this.queue[0];
    if (!oldest || this.running >= this.parallel) return;
    if (performance.now() - oldest.at >= STUCK_MS) {
      this.running++;
      void this.drain();
    }
    this.watchQueue();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.runGroup();
    } finally {
      this.running--;
    }
  }

  private async runGroup(): Promise<void> {
    // The first member is taken before the transaction opens: should BEGIN itself fail (the
    // database away), it gets the error instead of the group trying again for ever.
    const first = this.queue.shift();
    if (!first) return;
    const members: Member[] = [first];
    let failedAt = -1;
    let results: unknown[];
    try {
      results = await this.runAlone(async (tx) => {
        failedAt = -1;
        const values: unknown[] = [];
        const until = performance.now() + MAX_TAKING_MS;
        // A retried transaction runs the members it had taken again, first. Changes that arrive
        // while earlier ones run join (on PostgreSQL the loop is free during statements).
        // Once, when no change is waiting, the loop gets a turn first: on the embedded database the
        // statements held it, and the changes that arrived meanwhile join instead of waiting for
        // the next group (a quarter more changes a second with ten writers).
        let turnGiven = false;
        for (let i = 0; ; i++) {
          let next: Member | undefined = members[i];
          if (!next) {
            if (members.length >= MAX_MEMBERS || performance.now() > until) break;
            if (this.queue.length === 0 && !turnGiven) {
              turnGiven = true;
              await new Promise((resolve) => setImmediate(resolve));
            }
            next = this.queue.shift();
            if (!next) break;
            members.push(next);
          }
          try {
            values.push(await next.fn(tx));
          } catch (error) {
            failedAt = i;
            throw error;
          }
        }
        return values;
      });
    } catch (error) {
      if (failedAt >= 0 && !failedInDeferredWrite(error)) {
        members[failedAt]!.reject(error);
        this.queue.unshift(...members.slice(0, failedAt));
        return;
      }
      // Past the members' own work (the audit events, the revision, COMMIT itself) the outcome
      // may be unknown: running them again could apply them twice. Each gets the error, as a
      // transaction of its own would have — unless the database says it rolled back, or the
      // error is a deferred write's (of which change, nothing says): then each runs alone.
      if (!isRetryable(error) && !failedInDeferredWrite(error)) {
        for (const member of members) member.reject(error);
        return;
      }
      for (const member of members) {
        try {
          member.resolve(await this.runAlone(member.fn));
        } catch (alone) {
          member.reject(alone);
        }
      }
      return;
    }
    for (const [i, member] of members.entries()) member.resolve(results[i]);
  }
}
