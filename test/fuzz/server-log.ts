import { pino } from 'pino';
import type { Logger } from '../../src/log.js';

export interface LoggedLine {
  level: number;
  msg: string;
  /** The request in flight when the line was written, if any. */
  during?: string;
}

/**
 * The server's warnings and errors during the fuzz, each with the request in flight: a warning
 * such as "a value reached the database unchecked" comes with a good answer (the safety net's)
 * but names a check that is missing. Those written between requests are reported at the end.
 */
export type ServerLog = ReturnType<typeof recordServerLog>;

export function recordServerLog() {
  const lines: LoggedLine[] = [];
  let during: string | undefined;
  const logger: Logger = pino(
    { level: 'warn' },
    {
      write(line: string) {
        const { level, msg } = JSON.parse(line) as { level: number; msg: string };
        lines.push({ level, msg, during });
      },
    },
  );
  return {
    logger,
    lines,
    /** Names the request in flight (undefined between requests). */
    set during(label: string | undefined) {
      during = label;
    },
  };
}

/** The lines grouped by message, each with how often and during which requests. */
export function summarizeLog(lines: LoggedLine[]): string[] {
  const byMessage = new Map<string, Map<string, number>>();
  for (const { msg, during } of lines) {
    const requests = byMessage.get(msg) ?? new Map<string, number>();
    const key = during ?? 'between requests';
    requests.set(key, (requests.get(key) ?? 0) + 1);
    byMessage.set(msg, requests);
  }
  return [...byMessage].map(
    ([msg, requests]) => `"${msg}": ${[...requests].map(([request, n]) => `${request} ×${n}`).join(', ')}`,
  );
}
