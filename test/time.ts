/** The ISO time this many days from now (in the past when negative). */
export function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
