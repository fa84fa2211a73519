import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { pino } from 'pino';
import type { Logger } from '../../src/log.js';

/** One request sent: what the server logs in its course is tied to it. */
export interface SentRequest {
  label: string;
}

export interface LoggedLine {
  level: number;
  msg: string;
  /** The request whose work wrote the line, if any. */
  request?: SentRequest;
}

/**
 * The server's warnings and errors during the fuzz, each with the request whose work wrote it: a
 * warning such as "a value reached the database unchecked" comes with a good answer (the safety
 * net's) but names a check that is missing. Requests are sent one at a time, and a line is the
 * request's when that request's own work wrote it, not merely while it was in flight: background
 * work (a buffer's flush on its timer, a recurring job) runs beside requests and reports what it
 * dropped or could not reach. Lines of no request are reported at the end.
 *
 * A request's work is known by its async context, entered where Fastify starts the route's handler
 * (its `fastify.request.handler` trace): an injected request's context is lost before that, in the
 * stream that carries its body. Lines of the request's own logger (which binds `reqId`) are the
 * request's wherever they are written, the error handler's included.
 */
export type ServerLog = ReturnType<typeof recordServerLog>;

export function recordServerLog() {
  const lines: LoggedLine[] = [];
  const inCourseOf = new AsyncLocalStorage<SentRequest | undefined>();
  let inFlight: SentRequest | undefined;
  tracingChannel('fastify.request.handler').start.bindStore(inCourseOf, () => inFlight);
  const logger: Logger = pino(
    { level: 'warn' },
    {
      write(line: string) {
        const { level, msg, reqId } = JSON.parse(line) as { level: number; msg: string; reqId?: string };
        lines.push({
          level,
          msg,
          request: inCourseOf.getStore() ?? (reqId === undefined ? undefined : inFlight),
        });
      },
    },
  );
  return {
    logger,
    lines,
    /** Sends a request (`send`), what its work logs tied to `request`. */
    async sending<T>(request: SentRequest, send: () => Promise<T>): Promise<T> {
      inFlight = request;
      try {
        return await send();
      } finally {
        inFlight = undefined;
      }
    },
  };
}

/** The lines grouped by message, each with how often and during which requests. */
export function summarizeLog(lines: LoggedLine[]): string[] {
  const byMessage = new Map<string, Map<string, number>>();
  for (const { msg, request } of lines) {
    const requests = byMessage.get(msg) ?? new Map<string, number>();
    const key = request?.label ?? 'no request';
    requests.set(key, (requests.get(key) ?? 0) + 1);
    byMessage.set(msg, requests);
  }
  return [...byMessage].map(
    ([msg, requests]) => `"${msg}": ${[...requests].map(([request, n]) => `${request} ×${n}`).join(', ')}`,
  );
}
