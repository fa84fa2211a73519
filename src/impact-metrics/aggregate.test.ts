import { describe, expect, it } from 'vitest';
import { linesOf, quantileOf, selected } from './aggregate.js';
import { observationsOf } from './observations.js';

const MINUTE = 60_000;
const point = (seriesId: number, minute: number, value: number, buckets: number[] | null = null) => ({
  seriesId,
  at: new Date(minute * MINUTE),
  value,
  sum: null,
  buckets,
});

describe('a histogram quantile', () => {
  const bounds = new Map([[1, [10, 100]]]);

  it('interpolates inside the bucket its rank falls in, from 0 in the first', () => {
    // 4 at most 10, 8 at most 100, 10 in all.
    expect(quantileOf(0.2, [point(1, 0, 10, [4, 8])], bounds)).toBe(5);
    expect(quantileOf(0.6, [point(1, 0, 10, [4, 8])], bounds)).toBe(55);
  });

  it('is the highest finite bound when the rank falls in +Inf, and none without observations', () => {
    expect(quantileOf(0.99, [point(1, 0, 10, [4, 8])], bounds)).toBe(100);
    expect(quantileOf(0.5, [point(1, 0, 0, [0, 0])], bounds)).toBeUndefined();
  });

  it('adds the observations of several points of the same buckets', () => {
    expect(quantileOf(0.5, [point(1, 0, 4, [4, 4]), point(1, 1, 4, [0, 4])], bounds)).toBe(10);
  });
});

describe('label selectors', () => {
  it('pass a series whose every named label has one of the values, "*" any', () => {
    expect(selected({ app: 'a', env: 'prod' }, { app: ['a', 'b'] })).toBe(true);
    expect(selected({ app: 'c' }, { app: ['a', 'b'] })).toBe(false);
    expect(selected({ app: 'c' }, { app: ['*'] })).toBe(true);
    expect(selected({ env: 'prod' }, { app: ['*'] })).toBe(false);
  });
});

describe('lines of a counter', () => {
  const series = [
    { id: 1, labels: { app: 'a' }, bounds: null },
    { id: 2, labels: { app: 'b' }, bounds: null },
  ];
  const window = { startMs: 0, endMs: 3 * MINUTE, stepMs: MINUTE };

  it('are one line summed across series, a point a step, zero where nothing was reported', () => {
    const lines = linesOf(
      'counter',
      'count',
      series,
      [point(1, 0, 2), point(2, 0, 3), point(1, 2, 1)],
      {},
      window,
    );
    expect(lines).toEqual([
      {
        metric: {},
        data: [
          [0, '5'],
          [60, '0'],
          [120, '1'],
        ],
      },
    ]);
  });

  it('are one per value of a label selected by several, per second in rps', () => {
    const lines = linesOf(
      'counter',
      'rps',
      series,
      [point(1, 0, 60), point(2, 1, 120)],
      { app: ['a', 'b'] },
      window,
    );
    expect(lines.map((l) => [l.metric, l.data.map(([, v]) => v)])).toEqual([
      [{ app: 'a' }, ['1', '0', '0']],
      [{ app: 'b' }, ['0', '2', '0']],
    ]);
  });
});

describe('a report as observations', () => {
  it("makes names and labels Prometheus's, adds the origin, and keeps finite buckets in order", () => {
    const [counter, histogram] = observationsOf(
      [
        {
          name: 'page.views',
          help: '',
          type: 'counter',
          samples: [{ labels: { 'app-name': 'x', n: 3 }, value: 1 }],
        },
        {
          name: 'latency',
          help: '',
          type: 'histogram',
          samples: [
            {
              count: 3,
              sum: 2,
              buckets: [
                { le: '+Inf', count: 3 },
                { le: 1, count: 2 },
                { le: 0.1, count: 1 },
              ],
            },
          ],
        },
        { name: '1bad', help: '', type: 'gauge', samples: [{ value: 1 }] },
      ],
      'Edge',
    );
    expect(counter).toMatchObject({
      metric: 'page_views',
      labels: { app_name: 'x', n: '3', origin: 'Edge' },
    });
    expect(histogram).toMatchObject({ metric: 'latency', value: 3, bounds: [0.1, 1], buckets: [1, 2] });
  });
});
