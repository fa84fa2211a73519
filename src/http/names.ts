import { Type } from '@sinclair/typebox';

/**
 * A name that can stand in a URL as it is, as Unleash asks of feature and context names:
 * `encodeURIComponent(name) === name`, 1 to 100 characters.
 */
export const UrlFriendlyName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: "^[A-Za-z0-9\\-_.!~*'()]+$",
  description: "Letters, digits and - _ . ! ~ * ' ( ), at most 100 characters",
});

/** Project ids: letters, digits, `-`, `_` and `.`. */
export const ProjectId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9\\-_.]+$',
  description: 'Letters, digits, - _ and ., at most 100 characters',
});
