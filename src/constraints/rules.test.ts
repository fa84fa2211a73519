import { describe, expect, it } from 'vitest';
import { ValidationError } from '../http/errors.js';
import {
  type ContextFields,
  isDecimalNumber,
  isIsoDateTime,
  isStrictSemver,
  validateConstraints,
} from './rules.js';
import { OPERATORS } from './schemas.js';

const fields: ContextFields = new Map([
  ['userId', { legalValues: [] }],
  ['tier', { legalValues: ['1', '2'] }],
  ['version', { legalValues: [] }],
]);

function problems(input: unknown, options = {}): { path?: string; message: string }[] {
  try {
    validateConstraints(input, fields, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details ?? [{ message: (error as Error).message }];
  }
  return [];
}

describe('value parsers', () => {
  it('accepts decimal numbers and nothing else', () => {
    for (const ok of ['5', '-5.5', '0', '3.25', '+2', '.5', '10.'])
      expect(isDecimalNumber(ok), ok).toBe(true);
    for (const bad of ['abc', 'ten', '12abc', '', ' 5', '1e3', '--1', '.', '0x10']) {
      expect(isDecimalNumber(bad), bad).toBe(false);
    }
  });

  it('accepts ISO 8601 date-times and plain dates whose parts are in range', () => {
    for (const ok of [
      '2024-01-01T00:00:00.000Z',
      '2030-06-30T12:00:00Z',
      '2024-01-01',
      '2024-02-29T23:59:59+02:00',
      '2024-01-01T10:00',
    ]) {
      expect(isIsoDateTime(ok), ok).toBe(true);
    }
    for (const bad of [
      'not-a-date',
      '2024-13-45',
      '2023-02-29',
      '2024-04-31',
      '2024-01-01T24:00:00Z',
      '2024-01-01T10:60:00Z',
      '01/02/2024',
      '2024-1-1',
      '',
    ]) {
      expect(isIsoDateTime(bad), bad).toBe(false);
    }
  });

  it('accepts strict semantic versions only', () => {
    for (const ok of ['1.2.3', '1.2.3-beta.1', '10.0.0', '1.0.0+build.5', '1.0.0-rc.1+b']) {
      expect(isStrictSemver(ok), ok).toBe(true);
    }
    for (const bad of ['1.x', '1.2', 'v1.2.3', 'V1.2.3', '=1.2.3', ' 1.2.3', '1.2.3.4', '01.2.3', '']) {
      expect(isStrictSemver(bad), bad).toBe(false);
    }
  });
});

describe('validateConstraints', () => {
  it('fills in the defaults and keeps `value` and the order', () => {
    const result = validateConstraints(
      [
        { contextName: 'userId', operator: 'IN', values: ['a', 'b'] },
        { contextName: 'version', operator: 'SEMVER_GT', value: '1.2.3', inverted: true },
        { contextName: 'userId', operator: 'STR_CONTAINS', values: ['x'], caseInsensitive: true },
      ],
      fields,
    );
    expect(result).toEqual([
      { contextName: 'userId', operator: 'IN', values: ['a', 'b'], inverted: false, caseInsensitive: false },
      {
        contextName: 'version',
        operator: 'SEMVER_GT',
        values: [],
        value: '1.2.3',
        inverted: true,
        caseInsensitive: false,
      },
      {
        contextName: 'userId',
        operator: 'STR_CONTAINS',
        values: ['x'],
        inverted: false,
        caseInsensitive: true,
      },
    ]);
  });

  it('accepts a valid example of every operator', () => {
    const example: Record<string, string | string[]> = {
      NUM: '5',
      DATE: '2024-01-01T00:00:00Z',
      SEMVER: '1.2.3',
    };
    for (const operator of OPERATORS) {
      const family = operator.split('_')[0]!;
      const value = example[family];
      const constraint =
        value === undefined
          ? { contextName: 'userId', operator, values: ['a'] }
          : { contextName: 'userId', operator, value };
      expect(problems([constraint]), operator).toEqual([]);
    }
  });

  it('needs values for the list operators and a parsable value for the others', () => {
    const cases: [unknown, string][] = [
      [{ contextName: 'userId', operator: 'IN', values: [] }, 'constraints.0.values'],
      [{ contextName: 'userId', operator: 'NOT_IN' }, 'constraints.0.values'],
      [{ contextName: 'userId', operator: 'STR_ENDS_WITH', value: 'x' }, 'constraints.0.values'],
      [{ contextName: 'userId', operator: 'NUM_EQ', value: 'abc' }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'NUM_LTE', value: '12abc' }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'NUM_GT' }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'NUM_GT', values: ['5'] }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'DATE_AFTER', value: 'not-a-date' }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'DATE_BEFORE', value: '2024-13-45' }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'SEMVER_EQ', value: 'v1.2.3' }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'SEMVER_LT', value: '1.2' }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'SEMVER_GTE', value: '1.x' }, 'constraints.0.value'],
    ];
    for (const [constraint, path] of cases) {
      const found = problems([constraint]);
      expect(
        found.map((p) => p.path),
        JSON.stringify(constraint),
      ).toEqual([path]);
    }
    expect(problems([{ contextName: 'userId', operator: 'NUM_EQ', value: 'ten' }])[0]!.message).toContain(
      '"ten" is not one',
    );
  });

  it('checks the shape: required fields, operators, types, extra properties, lengths', () => {
    const cases: [unknown, string][] = [
      [{ operator: 'IN', values: ['a'] }, 'constraints.0.contextName'],
      [{ contextName: 'userId', values: ['a'] }, 'constraints.0.operator'],
      [{ contextName: 'userId', operator: 'in', values: ['a'] }, 'constraints.0.operator'],
      [{ contextName: 'userId', operator: 'FOO', values: ['a'] }, 'constraints.0.operator'],
      [{ contextName: 'userId', operator: 'IN', values: 'a' }, 'constraints.0.values'],
      [{ contextName: 'userId', operator: 'IN', values: [1] }, 'constraints.0.values.0'],
      [{ contextName: 'userId', operator: 'IN', values: ['a'], inverted: 'yes' }, 'constraints.0.inverted'],
      [
        { contextName: 'userId', operator: 'IN', values: ['a'], caseInsensitive: 1 },
        'constraints.0.caseInsensitive',
      ],
      [{ contextName: 'userId', operator: 'NUM_EQ', value: 5 }, 'constraints.0.value'],
      [{ contextName: 'userId', operator: 'IN', values: ['a'], extra: 1 }, 'constraints.0.extra'],
      [{ contextName: 'x'.repeat(101), operator: 'IN', values: ['a'] }, 'constraints.0.contextName'],
      [{ contextName: 'userId', operator: 'IN', values: ['x'.repeat(101)] }, 'constraints.0.values.0'],
      ['IN', 'constraints.0'],
    ];
    for (const [constraint, path] of cases) {
      const found = problems([constraint]);
      expect(
        found.map((p) => p.path),
        JSON.stringify(constraint),
      ).toContain(path);
    }
    expect(problems({ contextName: 'userId' })[0]!.path).toBe('constraints');
    expect(problems(Array(31).fill({ contextName: 'userId', operator: 'IN', values: ['a'] }))[0]!.path).toBe(
      'constraints',
    );
  });

  it('reports every problem of every constraint at once', () => {
    const found = problems([
      { contextName: 'userId', operator: 'IN', values: [] },
      { contextName: 'userId', operator: 'NUM_EQ', value: 'x' },
    ]);
    expect(found.map((p) => p.path)).toEqual(['constraints.0.values', 'constraints.1.value']);
  });

  it('holds values to the legal values of their context field', () => {
    expect(problems([{ contextName: 'tier', operator: 'NUM_EQ', value: '2' }])).toEqual([]);
    expect(problems([{ contextName: 'tier', operator: 'IN', values: ['1', '2'] }])).toEqual([]);
    const single = problems([{ contextName: 'tier', operator: 'NUM_EQ', value: '3' }]);
    expect(single).toMatchObject([{ path: 'constraints.0.value' }]);
    expect(single[0]!.message).toContain('"3" is not a legal value of the context field "tier"');
    const multi = problems([{ contextName: 'tier', operator: 'IN', values: ['1', '4', '5'] }]);
    expect(multi).toMatchObject([{ path: 'constraints.0.values' }]);
    expect(multi[0]!.message).toContain('"4", "5" are not legal values');
  });

  it('accepts unknown context fields unless asked not to, and then names the field', () => {
    expect(problems([{ contextName: 'region', operator: 'IN', values: ['eu'] }])).toEqual([]);
    const found = problems([{ contextName: 'region', operator: 'IN', values: ['eu'] }], {
      requireKnownContext: true,
      path: '',
    });
    expect(found).toMatchObject([{ path: 'contextName' }]);
    expect(found[0]!.message).toContain('"region"');
  });

  it('uses bare field paths for a single constraint', () => {
    expect(problems([{ contextName: 'userId', operator: 'NUM_EQ' }], { path: '' })).toMatchObject([
      { path: 'value' },
    ]);
    expect(problems([{ operator: 'IN', values: ['a'] }], { path: '' })).toMatchObject([
      { path: 'contextName' },
    ]);
  });
});
