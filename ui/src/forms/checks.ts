// Rules a form can check before sending, where the API's rule is known and simple.

export const required = (value: string) => (value.trim() === '' ? 'Required.' : undefined);

/** An id for URLs and tokens (a project's, an environment's): what the API's pattern allows. */
export const idCheck = (value: string) =>
  required(value) ??
  (/^[A-Za-z0-9\-_.]+$/.test(value) ? undefined : "Only letters, digits, '-', '_' and '.', without spaces.");

/** A flag's name: the API's pattern (URL-safe characters). */
export const flagNameCheck = (value: string) =>
  required(value) ??
  (/^[A-Za-z0-9\-_.!~*'()]+$/.test(value)
    ? undefined
    : "Only letters, digits and - _ . ! ~ * ' ( ), without spaces.");

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
