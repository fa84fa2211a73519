import type { Database } from '../db/database.js';

const POLL_MS = 1000;

/**
 * The revision of the configuration: the id of the newest audit event, since every change writes
 * one. Caches that must follow changes (the SDK snapshot, resolved tokens) listen here. It learns
 * of a change at once after a local write (`check()`), through NOTIFY from other processes on
 * PostgreSQL, and by polling every second whatever happens to the notifications.
 */
export class RevisionWatcher {
  private current = 0;
  private readonly listeners = new Set<(revision: number) => void>();
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private checking: Promise<void> | undefined;
  private recheck = false;

  constructor(private readonly db: Database) {}

  get revision(): number {
    return this.current;
  }

  async start(): Promise<void> {
    this.current = await this.read();
    this.timer = setInterval(() => void this.check(), POLL_MS);
    this.timer.unref();
    this.stopListening = await this.db.listen('flagpole_revision', () => void this.check());
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.stopListening?.();
  }

  onChange(listener: (revision: number) => void): void {
    this.listeners.add(listener);
  }

  /** Reads the revision again; overlapping calls share one read, and one more follows if asked meanwhile. */
  check(): Promise<void> {
    if (this.checking) {
      this.recheck = true;
      return this.checking;
    }
    this.checking = (async () => {
      try {
        do {
          this.recheck = false;
          const revision = await this.read();
          if (revision !== this.current) {
            this.current = revision;
            for (const listener of this.listeners) listener(revision);
          }
        } while (this.recheck);
      } catch {
        // The database is away (or closing): the next poll tries again.
      } finally {
        this.checking = undefined;
      }
    })();
    return this.checking;
  }

  private async read(): Promise<number> {
    const { rows } = await this.db.query<{ id: number | null }>('SELECT max(id) AS id FROM events');
    return rows[0]?.id ?? 0;
  }
}
