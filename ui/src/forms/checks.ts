// Rules a form can check before sending, where the API's rule is known and simple.

/** The API's patterns for ids and flag names, each with the rule as a user reads it. */
export const ID_PATTERN = {
  source: '^[A-Za-z0-9\\-_.]+$',
  rule: "Only letters, digits, '-', '_' and '.', without spaces.",
};
export const FLAG_NAME_PATTERN = {
  source: "^[A-Za-z0-9\\-_.!~*'()]+$",
  rule: "Only letters, digits and - _ . ! ~ * ' ( ), without spaces.",
};

const follows = (pattern: { source: string; rule: string }, value: string) =>
  new RegExp(pattern.source).test(value) ? undefined : pattern.rule;

export const required = (value: string) => (value.trim() === '' ? 'Required.' : undefined);

/** An id for URLs and tokens (a project's, an environment's): what the API's pattern allows. */
export const idCheck = (value: string) => required(value) ?? follows(ID_PATTERN, value);

/** A flag's name: the API's pattern (URL-safe characters). */
export const flagNameCheck = (value: string) => required(value) ?? follows(FLAG_NAME_PATTERN, value);

/** An id suggested from a name: "Web Shop!" gives "web-shop". */
export function idFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9_.]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
