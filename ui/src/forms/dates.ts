/** A `datetime-local` input's value for a time this many days from now. */
export function localInputInDays(days: number): string {
  const at = new Date(Date.now() + days * 86_400_000);
  at.setMinutes(at.getMinutes() - at.getTimezoneOffset());
  return at.toISOString().slice(0, 16);
}

/** A `datetime-local` input's value (the user's local time) as the API's ISO date-time. */
export function isoFromLocalInput(value: string): string {
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? value : at.toISOString();
}
