import { BlockList, isIPv4, isIPv6 } from 'node:net';
import semver from 'semver';
import { fieldReader } from './context.js';
import type { Constraint, Context } from './types.js';

/** A constraint compiled for one definition: its values parsed, its field read, its operator chosen once. */
export type Check = (context: Context) => boolean;

const never: Check = () => false;

function cleanValues(values: string[] | undefined): string[] {
  return (values ?? []).filter((v) => !!v).map((v) => v.trim());
}

function isIn(c: Constraint): Check {
  const read = fieldReader(c.contextName);
  const values = new Set(cleanValues(c.values));
  return c.operator === 'IN'
    ? (context) => values.has(read(context) as string)
    : (context) => !values.has(read(context) as string);
}

function stringMatch(c: Constraint): Check {
  const read = fieldReader(c.contextName);
  const fold = c.caseInsensitive === true;
  const values = cleanValues(c.values).map((v) => (fold ? v.toLocaleLowerCase() : v));
  const test =
    c.operator === 'STR_STARTS_WITH'
      ? (v: string) => values.some((x) => v.startsWith(x))
      : c.operator === 'STR_ENDS_WITH'
        ? (v: string) => values.some((x) => v.endsWith(x))
        : (v: string) => values.some((x) => v.includes(x));
  return (context) => {
    const value = read(context);
    return value !== undefined && test(fold ? value.toLocaleLowerCase() : value);
  };
}

const NUMBER_TESTS: Record<string, (actual: number, expected: number) => boolean> = {
  NUM_EQ: (a, e) => a === e,
  NUM_GT: (a, e) => a > e,
  NUM_GTE: (a, e) => a >= e,
  NUM_LT: (a, e) => a < e,
  NUM_LTE: (a, e) => a <= e,
};

function numberCompare(c: Constraint): Check {
  const expected = Number(c.value);
  if (Number.isNaN(expected)) return never;
  const read = fieldReader(c.contextName);
  const test = NUMBER_TESTS[c.operator]!;
  return (context) => {
    const actual = Number(read(context));
    return !Number.isNaN(actual) && test(actual, expected);
  };
}

/** NaN (an unparsable date) compares false either way, as a Date would. */
function dateCompare(c: Constraint): Check {
  const expected = new Date(c.value ?? '').getTime();
  const now = (context: Context) =>
    context.currentTime ? new Date(context.currentTime as string).getTime() : Date.now();
  return c.operator === 'DATE_AFTER'
    ? (context) => now(context) > expected
    : (context) => now(context) < expected;
}

const SEMVER_TESTS: Record<string, (actual: string, expected: semver.SemVer) => boolean> = {
  SEMVER_EQ: (a, e) => semver.eq(a, e),
  SEMVER_GT: (a, e) => semver.gt(a, e),
  SEMVER_LT: (a, e) => semver.lt(a, e),
  SEMVER_GTE: (a, e) => semver.gte(a, e),
  SEMVER_LTE: (a, e) => semver.lte(a, e),
};

/** The context's version must be strict semver (no leading `v`); the constraint's is parsed once. */
function semverCompare(c: Constraint): Check {
  const expected = semver.parse(c.value ?? '');
  if (!expected) return never;
  const read = fieldReader(c.contextName);
  const test = SEMVER_TESTS[c.operator]!;
  return (context) => {
    const actual = read(context);
    return !!actual && !actual.startsWith('v') && semver.valid(actual) !== null && test(actual, expected);
  };
}

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
function re2ToRegExp(source: string, caseInsensitive: boolean): RegExp | null {
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

function regexMatch(c: Constraint): Check {
  if (c.value === undefined) return never;
  const regex = re2ToRegExp(c.value, c.caseInsensitive === true);
  if (!regex) return never;
  const read = fieldReader(c.contextName);
  return (context) => {
    const value = read(context);
    return value !== undefined && regex.test(value);
  };
}

type Family = 'ipv4' | 'ipv6';

function familyOf(address: string): Family | null {
  return isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
}

/** A range (`10.0.0.0/8`, or one address) as a block list of its family; null when it is not one. */
function addressRange(range: string): { family: Family; list: BlockList } | null {
  const [net, prefix] = range.split('/');
  const family = net ? familyOf(net) : null;
  if (!net || !family) return null;
  const max = family === 'ipv4' ? 32 : 128;
  const bits = prefix === undefined ? max : Number(prefix);
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return null;
  const list = new BlockList();
  try {
    list.addSubnet(net, bits, family);
  } catch {
    return null;
  }
  return { family, list };
}

/** Whether an address is one of the listed addresses or inside one of the listed CIDR ranges, the ranges parsed once. */
export function addressMatcher(ranges: string[]): (address: string | undefined) => boolean {
  const parsed = ranges.flatMap((r) => addressRange(r) ?? []);
  return (address) => {
    const family = address ? familyOf(address) : null;
    return !!family && parsed.some((r) => r.family === family && r.list.check(address!, family));
  };
}

function cidrMatch(c: Constraint): Check {
  const read = fieldReader(c.contextName);
  const inRanges = addressMatcher(cleanValues(c.values));
  return (context) => inRanges(read(context));
}

const COMPILERS: Record<string, (c: Constraint) => Check> = {
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

/** An operator this server does not know never matches, inverted or not. */
function compile(c: Constraint): Check {
  const make = COMPILERS[c.operator];
  if (!make) return never;
  const check = make(c);
  return c.inverted ? (context) => !check(context) : check;
}

/** Compiled once per constraint definition: a definition is replaced, never changed, when its flag changes. */
const compiled = new WeakMap<Constraint, Check>();

export function constraintCheck(constraint: Constraint): Check {
  let check = compiled.get(constraint);
  if (!check) {
    check = compile(constraint);
    compiled.set(constraint, check);
  }
  return check;
}
