import pg from 'pg';
import type { TestServer } from './server.js';

// Any constant: the advisory lock the stalled inserts wait for.
const STALL_LOCK = 4_242_999;

export interface Stall {
  /** Resolves once a transaction is held at the insert. */
  reached(): Promise<void>;
  /**
   * Resolves once `count` transactions wait for a row lock (not for the stall), or when `settled`
   * settles first: the request it stands for did not wait at all.
   */
  blocked(settled: Promise<unknown>, count?: number): Promise<void>;
  /** Lets the held inserts go on and removes the trigger. */
  release(): Promise<void>;
}

async function until(what: string, check: () => Promise<boolean>, settled?: Promise<unknown>): Promise<void> {
  let done = false;
  settled?.then(
    () => (done = true),
    () => (done = true),
  );
  const deadline = Date.now() + 15_000;
  while (!done && !(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * PostgreSQL only: holds every insert into `table` in the middle of its transaction — `before`
 * the row is written (so before its foreign keys are checked) or `after` (once they are) — until
 * `release`. A trigger makes the insert wait for an advisory lock this helper holds, which puts a
 * race between two requests in a fixed order.
 */
export async function stallInserts(
  server: TestServer,
  table: string,
  when: 'before' | 'after',
): Promise<Stall> {
  const client = new pg.Client({ connectionString: server.database.url });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1)', [STALL_LOCK]);
  await client.query(`
    CREATE OR REPLACE FUNCTION test_stall() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(${STALL_LOCK});
      RETURN NEW;
    END $$`);
  // After-triggers fire in the order of their names: this one after the foreign-key checks (RI_…).
  await client.query(
    `CREATE TRIGGER zz_test_stall ${when.toUpperCase()} INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION test_stall()`,
  );
  const waiting = async (sql: string, count: number) => {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND ${sql}`,
    );
    return rows[0]!.n >= count;
  };
  return {
    reached: () => until('an insert is held', () => waiting(`wait_event = 'advisory'`, 1)),
    blocked: (settled, count = 1) =>
      until('a transaction waits for a row lock', () => waiting(`wait_event <> 'advisory'`, count), settled),
    async release() {
      await client.query('SELECT pg_advisory_unlock($1)', [STALL_LOCK]);
      await client.query(`DROP TRIGGER zz_test_stall ON ${table}`);
      await client.end();
    },
  };
}
