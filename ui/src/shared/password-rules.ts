/** What the server asks of a new password (it checks, and says which rule failed). */
export const PASSWORD_RULES =
  'At least 10 characters, with an upper-case and a lower-case letter, a digit and a special character, and no character three times in a row.';
