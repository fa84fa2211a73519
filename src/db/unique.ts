/** PostgreSQL's unique_violation: two requests raced for the same name and the other one won. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
