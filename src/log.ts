import { pino } from 'pino';

/** What background work needs to report a failure; Fastify's logger is the same object. */
export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({ level });
}

/** For tests and tools that want no output. */
export const silentLogger: Logger = pino({ level: 'silent' });
