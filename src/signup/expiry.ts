/**
 * The same day of the next month, or that month's last day when it is shorter
 * (31 January → 28 or 29 February), at the same time of day (UTC).
 */
export function oneMonthAfter(date: Date): Date {
  const day = date.getUTCDate();
  const result = new Date(date);
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** An invite link lives at most one month from when its expiry is set. */
export function cappedExpiry(requested: Date, now: Date): Date {
  const limit = oneMonthAfter(now);
  return requested.getTime() > limit.getTime() ? limit : requested;
}

/** A token that is past its expiry is disabled, whatever its stored flag says. */
export function isUsable(token: { enabled: boolean; expiresAt: Date }, now: Date): boolean {
  return token.enabled && token.expiresAt.getTime() > now.getTime();
}
