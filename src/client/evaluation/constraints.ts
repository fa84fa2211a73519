import { BlockList, isIPv4, isIPv6 } from 'node:net';
import semver from 'semver';
import { contextValue } from './context.js';
import type { Constraint, Context } from './types.js';

type Check = (constraint: Constraint, context: Context) => boolean;

function cleanValues(values: string[] | undefined): string[] {
  return (values ?? []).filter((v) => !!v).map((v) => v.trim());
}

const isIn: Check = (c, context) => {
  const value = contextValue(context, c.contextName);
  const found = cleanValues(c.values).some((v) => v === value);
  return c.operator === 'IN' ? found : !found;
};

const stringMatch: Check = (c, context) => {
  let value = contextValue(context, c.contextName);
  if (value === undefined) return false;
  let values = cleanValues(c.values);
  if (c.caseInsensitive) {
    value = value.toLocaleLowerCase();
    values = values.map((v) => v.toLocaleLowerCase());
  }
  const v = value;
  if (c.operator === 'STR_STARTS_WITH') return values.some((x) => v.startsWith(x));
  if (c.operator === 'STR_ENDS_WITH') return values.some((x) => v.endsWith(x));
  return values.some((x) => v.includes(x));
};

const numberCompare: Check = (c, context) => {
  const expected = Number(c.value);
  const actual = Number(contextValue(context, c.contextName));
  if (Number.isNaN(expected) || Number.isNaN(actual)) return false;
  switch (c.operator) {
    case 'NUM_EQ':
      return actual === expected;
    case 'NUM_GT':
      return actual > expected;
    case 'NUM_GTE':
      return actual >= expected;
    case 'NUM_LT':
      return actual < expected;
    default:
      return actual <= expected;
  }
};

const dateCompare: Check = (c, context) => {
  const expected = new Date(c.value ?? '');
  const now = context.currentTime ? new Date(context.currentTime as string) : new Date();
  return c.operator === 'DATE_AFTER' ? now > expected : now < expected;
};

function isStrictSemver(version: string): boolean {
  return semver.valid(version) !== null && !version.startsWith('v');
}

const semverCompare: Check = (c, context) => {
  const actual = contextValue(context, c.contextName);
  const expected = c.value ?? '';
  if (!actual || !isStrictSemver(actual) || semver.valid(expected) === null) return false;
  switch (c.operator) {
    case 'SEMVER_EQ':
      return semver.eq(actual, expected);
    case 'SEMVER_GT':
      return semver.gt(actual, expected);
    case 'SEMVER_LT':
      return semver.lt(actual, expected);
    case 'SEMVER_GTE':
      return semver.gte(actual, expected);
    default:
      return semver.lte(actual, expected);
  }
};

const POSIX_CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  word: '\\w',
  xdigit: '0-9A-Fa-f',
  punct: '!-\\/:-@\\[-`{-~',
};

/**
 * SDKs evaluate REGEX constraints with RE2. This takes RE2 syntax to a JavaScript RegExp: inline
 * flag groups such as `(?i)` become flags, POSIX classes are spelled out, and what RE2 refuses
 * (back-references, look-arounds) is refused here too, so such a constraint never matches.
 */
export function re2ToRegExp(source: string, caseInsensitive: boolean): RegExp | null {
  if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(source)) return null;
  const flags = new Set(caseInsensitive ? ['i'] : []);
  const pattern = source
    .replace(/\(\?([imsU]+)\)/g, (_group, letters: string) => {
      for (const letter of letters) if (letter !== 'U') flags.add(letter);
      return '';
    })
    .replace(/\[:(\w+):\]/g, (whole, name: string) => POSIX_CLASSES[name] ?? whole);
  try {
    return new RegExp(pattern, [...flags].join(''));
  } catch {
    return null;
  }
}

const regexCache = new Map<string, RegExp | null>();

function compileRegex(source: string, caseInsensitive: boolean): RegExp | null {
  const key = `${caseInsensitive ? 'i' : '-'}${source}`;
  let regex = regexCache.get(key);
  if (regex === undefined) {
    regex = re2ToRegExp(source, caseInsensitive);
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(key, regex);
  }
  return regex;
}

const regexMatch: Check = (c, context) => {
  const value = contextValue(context, c.contextName);
  if (value === undefined || c.value === undefined) return false;
  return compileRegex(c.value, c.caseInsensitive === true)?.test(value) ?? false;
};

/** Whether `address` is one of the listed addresses or inside one of the listed CIDR ranges. */
export function inAddressRanges(address: string | undefined, ranges: string[]): boolean {
  if (!address) return false;
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (!family) return false;
  return ranges.some((range) => {
    const [net, prefix] = range.split('/');
    if (!net) return false;
    const netFamily = isIPv4(net) ? 'ipv4' : isIPv6(net) ? 'ipv6' : null;
    if (netFamily !== family) return false;
    const list = new BlockList();
    const bits = prefix === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefix);
    if (!Number.isInteger(bits) || bits < 0 || bits > (family === 'ipv4' ? 32 : 128)) return false;
    list.addSubnet(net, bits, family);
    return list.check(address, family);
  });
}

const cidrMatch: Check = (c, context) =>
  inAddressRanges(contextValue(context, c.contextName), cleanValues(c.values));

const CHECKS: Record<string, Check> = {
  IN: isIn,
  NOT_IN: isIn,
  STR_STARTS_WITH: stringMatch,
  STR_ENDS_WITH: stringMatch,
  STR_CONTAINS: stringMatch,
  NUM_EQ: numberCompare,
  NUM_GT: numberCompare,
  NUM_GTE: numberCompare,
  NUM_LT: numberCompare,
  NUM_LTE: numberCompare,
  DATE_AFTER: dateCompare,
  DATE_BEFORE: dateCompare,
  SEMVER_EQ: semverCompare,
  SEMVER_GT: semverCompare,
  SEMVER_LT: semverCompare,
  SEMVER_GTE: semverCompare,
  SEMVER_LTE: semverCompare,
  REGEX: regexMatch,
  IN_CIDR: cidrMatch,
};

/** One constraint; an operator this server does not know never matches. */
export function constraintHolds(constraint: Constraint, context: Context): boolean {
  const check = CHECKS[constraint.operator];
  if (!check) return false;
  const result = check(constraint, context);
  return constraint.inverted ? !result : result;
}
