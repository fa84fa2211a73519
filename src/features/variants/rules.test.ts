import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../http/errors.js';
import { fixVariantWeights, prepareVariants } from './rules.js';

const v = (name: string, weightType: 'variable' | 'fix' = 'variable', weight = 0) => ({
  name,
  weight,
  weightType,
});

describe('fixVariantWeights', () => {
  it('splits 1000 between two variable variants', () => {
    expect(fixVariantWeights([v('a', 'variable', 1), v('b', 'variable', 999)]).map((x) => x.weight)).toEqual([
      500, 500,
    ]);
  });

  it('keeps fix weights, shares the rest, hands out the remainder by name, sorts by name', () => {
    const fixed = fixVariantWeights([v('charlie'), v('alpha'), v('bravo'), v('fixed', 'fix', 200)]);
    expect(fixed.map((x) => [x.name, x.weight])).toEqual([
      ['alpha', 267],
      ['bravo', 267],
      ['charlie', 266],
      ['fixed', 200],
    ]);
    const four = fixVariantWeights([v('d'), v('c'), v('b', 'fix', 2), v('a'), v('e', 'fix', 0)]);
    expect(four.map((x) => [x.name, x.weight])).toEqual([
      ['a', 333],
      ['b', 2],
      ['c', 333],
      ['d', 332],
      ['e', 0],
    ]);
  });

  it('always totals 1000 and ignores the weights sent for variable variants', () => {
    for (const count of [1, 3, 6, 7, 11]) {
      const list = Array.from({ length: count }, (_, i) => v(`v${i}`, 'variable', 999));
      expect(fixVariantWeights([...list, v('z', 'fix', 13)]).reduce((s, x) => s + x.weight, 0)).toBe(1000);
    }
    expect(fixVariantWeights([v('only', 'variable', 3)])).toEqual([v('only', 'variable', 1000)]);
  });

  it('leaves nothing for variable variants when fix weights take all of it', () => {
    expect(fixVariantWeights([v('a', 'fix', 1000), v('b')]).map((x) => x.weight)).toEqual([1000, 0]);
  });

  it('refuses a list without a variable variant, and fix weights over 1000', () => {
    expect(() => fixVariantWeights([v('a', 'fix', 500), v('b', 'fix', 500)])).toThrow(ValidationError);
    expect(() => fixVariantWeights([v('a', 'fix', 600), v('b', 'fix', 401), v('c')])).toThrow(/1001/);
  });

  it('returns an empty list for an empty list, and keeps other properties', () => {
    expect(fixVariantWeights([])).toEqual([]);
    const [kept] = fixVariantWeights([
      { ...v('a'), stickiness: 'userId', payload: { type: 'string', value: 'x' } },
    ]);
    expect(kept).toMatchObject({ stickiness: 'userId', payload: { type: 'string', value: 'x' } });
  });
});

describe('prepareVariants', () => {
  it('fills in the defaults and fixes the weights', () => {
    expect(
      prepareVariants(
        [
          { name: 'b', weight: 0 },
          { name: 'a', weight: 0, stickiness: 'userId' },
        ],
        'variants',
      ),
    ).toEqual([
      { name: 'a', weight: 500, weightType: 'variable', stickiness: 'userId' },
      { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' },
    ]);
  });

  it('keeps payloads and overrides', () => {
    const [variant] = prepareVariants(
      [
        {
          name: 'a',
          weight: 1000,
          weightType: 'variable',
          payload: { type: 'json', value: '{"x":1}' },
          overrides: [{ contextName: 'userId', values: ['1'] }],
        },
      ],
      'variants',
    );
    expect(variant).toMatchObject({
      payload: { type: 'json', value: '{"x":1}' },
      overrides: [{ contextName: 'userId', values: ['1'] }],
    });
  });

  it('refuses repeated names and payloads that do not parse as their type, saying where', () => {
    const problems = (input: Parameters<typeof prepareVariants>[0]) => {
      try {
        prepareVariants(input, 'variants');
      } catch (error) {
        return (error as ValidationError).details?.map((d) => d.path);
      }
      return [];
    };
    expect(
      problems([
        { name: 'a', weight: 1 },
        { name: 'a', weight: 1 },
      ]),
    ).toEqual(['variants.1.name']);
    expect(problems([{ name: 'a', weight: 1, payload: { type: 'json', value: '{oops' } }])).toEqual([
      'variants.0.payload.value',
    ]);
    expect(problems([{ name: 'a', weight: 1, payload: { type: 'number', value: 'twelve' } }])).toEqual([
      'variants.0.payload.value',
    ]);
    expect(problems([{ name: 'a', weight: 1, payload: { type: 'csv', value: 'a,b' } }])).toEqual([]);
  });
});
