import { useEffect, useState } from 'preact/hooks';
import type { Schedule } from './types';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * How long until `iso`, as people say it: "in 3 h 12 min", "in 2 days 4 h". Rounded up, so that
 * what is 30 seconds away is "in 1 min" rather than already due.
 */
export function timeUntil(iso: string, now: number): string {
  const minutes = Math.ceil((new Date(iso).getTime() - now) / 60_000);
  if (minutes <= 0) return 'now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `in ${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  const days = Math.floor(hours / 24);
  return `in ${plural(days, 'day')}${hours % 24 ? ` ${hours % 24} h` : ''}`;
}

/** The time now, read again every `everyMs`: what counts down to a moment stays true while shown. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

// setTimeout fires at once for a delay past this (2^31 - 1 ms, some 24 days).
const LONGEST_TIMEOUT_MS = 2_147_483_647;

/**
 * Calls `reload` a little after a pending schedule's time: a request the server applies then shows
 * as applied without the user reading it again. Each read answers a new `schedule`, so one still
 * pending after its time is read again a little later, until the server has done with it.
 */
export function useReloadWhenDue(schedule: Schedule | undefined, reload: () => void): void {
  useEffect(() => {
    if (schedule?.status !== 'pending') return;
    // The server looks for due jobs every second; two give it time to apply the request.
    const wait = Math.max(new Date(schedule.scheduledAt).getTime() - Date.now(), 0) + 2_000;
    if (wait > LONGEST_TIMEOUT_MS) return;
    const timer = setTimeout(reload, wait);
    return () => clearTimeout(timer);
  }, [schedule, reload]);
}
