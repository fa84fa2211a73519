import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/** How often the event loop is sampled: a sample that comes this much late or more is a stall. */
const SAMPLE_MS = 10;
const STALL_MS = 20;
/** How long the process counts as busy after the last stall seen. */
const HOLD_MS = 500;

let timer: NodeJS.Timeout | undefined;
let lastSample = 0;
let busyUntil = 0;

function sample(): void {
  const now = performance.now();
  if (now - lastSample - SAMPLE_MS >= STALL_MS) busyUntil = now + HOLD_MS;
  lastSample = now;
}

/**
 * Whether this process's event loop has stalled lately. A property of the process, not of one
 * server: measured once, by a timer that never keeps the process alive.
 */
function stalledLately(): boolean {
  const now = performance.now();
  if (!timer) {
    lastSample = now;
    timer = setInterval(sample, SAMPLE_MS);
    timer.unref();
  }
  // A timer overdue now is a stall under way, seen before the timer itself can run.
  return now < busyUntil || now - lastSample - SAMPLE_MS >= STALL_MS;
}

/** SDK requests that can wait under way in this process, and the bytes of their bodies. */
let sdkRequestsUnderWay = 0;
let sdkBytesUnderWay = 0;
/** Under way at once beyond which a stalling process turns more of them away. */
const PILED_UP = 4;
/**
 * Body bytes under way at once beyond which more are turned away whatever the loop does: a burst
 * of large bodies arrives before any stall can be seen, and each is parsed in one piece.
 */
const MAX_BYTES_UNDER_WAY = 1024 * 1024;
/** A body sent without a length is taken as this large. */
const UNKNOWN_LENGTH = 256 * 1024;

/**
 * Whether an SDK request that can wait (a report SDKs send again) should be turned away now, before
 * its body is read: large bodies are already being read, or the event loop is falling behind while
 * such requests pile up. Health checks, flag answers and the admin API get their turns instead.
 * When it answers false, the request is counted as under way until its answer is sent or its
 * connection closes.
 */
export function turnAwayWhenPiledUp(request: IncomingMessage, response: ServerResponse): boolean {
  const length = request.headers['content-length'];
  const bytes =
    length === undefined ? (request.headers['transfer-encoding'] ? UNKNOWN_LENGTH : 0) : Number(length) || 0;
  if (sdkRequestsUnderWay > 0 && sdkBytesUnderWay + bytes > MAX_BYTES_UNDER_WAY) return true;
  if (sdkRequestsUnderWay >= PILED_UP && stalledLately()) return true;
  sdkRequestsUnderWay++;
  sdkBytesUnderWay += bytes;
  response.once('close', () => {
    sdkRequestsUnderWay--;
    sdkBytesUnderWay -= bytes;
  });
  return false;
}
