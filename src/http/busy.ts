import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/** How often the event loop is sampled: a sample that comes this much late or more is a stall. */
const SAMPLE_MS = 10;
const STALL_MS = 30;
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
  if (!timer) {
    lastSample = performance.now();
    timer = setInterval(sample, SAMPLE_MS);
    timer.unref();
  }
  return performance.now() < busyUntil;
}

/** SDK requests that can wait under way in this process: counted from arrival to the last byte sent. */
let sdkRequestsUnderWay = 0;
/** Under way at once beyond which a stalling process turns more of them away. */
const PILED_UP = 8;

/**
 * Whether an SDK request that can wait (a report SDKs send again) should be turned away now, before
 * its body is read: the event loop is falling behind and such requests are piling up, so health
 * checks, flag answers and the admin API get their turns instead. When it answers false, the request
 * is counted as under way until its answer is sent or its connection closes.
 */
export function turnAwayWhenPiledUp(response: ServerResponse): boolean {
  if (sdkRequestsUnderWay >= PILED_UP && stalledLately()) return true;
  sdkRequestsUnderWay++;
  response.once('close', () => {
    sdkRequestsUnderWay--;
  });
  return false;
}
