// The API's validation messages speak of JSON: "The `0.weight` property must be <= 1000", "must
// match pattern "^[A-Za-z0-9\-_.]+$"". Beside a field, the user needs the rule in their words,
// in the units the field shows (a variant's weight is stored per mille, shown in percent).

import { FLAG_NAME_PATTERN, ID_PATTERN } from './checks';

const PATTERNS: Record<string, string> = {
  [ID_PATTERN.source]: ID_PATTERN.rule,
  [FLAG_NAME_PATTERN.source]: FLAG_NAME_PATTERN.rule,
  '\\S': 'Cannot be only spaces.',
};

/** A number of the API in the unit the field shows. */
function inUnit(path: string, n: number): string {
  return /(^|\.)weight$/.test(path) ? `${n / 10} %` : n.toLocaleString('en');
}

const RULES: [RegExp, (path: string, m: RegExpMatchArray) => string][] = [
  [
    /must NOT have fewer than (\d+) characters?/,
    (_, m) => (m[1] === '1' ? 'Required.' : `At least ${m[1]} characters.`),
  ],
  [/must NOT have more than (\d+) characters?/, (_, m) => `At most ${m[1]} characters.`],
  [/must NOT have fewer than (\d+) items?/, (_, m) => `Choose at least ${m[1]}.`],
  [/must NOT have more than (\d+) items?/, (_, m) => `At most ${m[1]}.`],
  [/must match pattern "(.*)"/, (_, m) => PATTERNS[m[1]!] ?? 'Not in the expected form.'],
  [/must be <= (-?[\d.]+)/, (path, m) => `At most ${inUnit(path, Number(m[1]))}.`],
  [/must be < (-?[\d.]+)/, (path, m) => `Less than ${inUnit(path, Number(m[1]))}.`],
  [/must be >= (-?[\d.]+)/, (path, m) => `At least ${inUnit(path, Number(m[1]))}.`],
  [/must be > (-?[\d.]+)/, (path, m) => `More than ${inUnit(path, Number(m[1]))}.`],
  [/must be integer/, () => 'A whole number.'],
  [/must be number/, () => 'A number.'],
  [/must be equal to one of the allowed values/, () => 'Choose one of the offered values.'],
  [/must have required property '([^']+)'/, () => 'Required.'],
  [/must be string/, () => 'Text is expected here.'],
];

/** A validation message of the API as the field it names says it; a message already in words stays. */
export function friendlyMessage(path: string, message: string): string {
  for (const [pattern, say] of RULES) {
    const match = message.match(pattern);
    if (match) return say(path, match);
  }
  return message;
}

/**
 * The messages of one field, said once each; an empty required field is only that (its pattern
 * failing too says nothing more).
 */
export function joinMessages(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.includes('Required.') ? 'Required.' : unique.join(' ');
}
