/** A `datetime-local` input's value (the user's local time, to the minute) for a moment. */
export function localInputOf(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A `datetime-local` input's value for a time this many days from now. */
export function localInputInDays(days: number): string {
  return localInputOf(new Date(Date.now() + days * 86_400_000));
}

/** A `datetime-local` input's value (the user's local time) as the API's ISO date-time. */
export function isoFromLocalInput(value: string): string {
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? value : at.toISOString();
}
