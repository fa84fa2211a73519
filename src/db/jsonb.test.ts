import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';
import { asStoredJson } from './jsonb.js';

describe('a JSON value as jsonb gives it back', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('serializes as the database serializes it', async () => {
    const values = [
      { rollout: '50', stickiness: 'default', groupId: 'g', b: 1, a: [{ zz: 1, y: undefined, é: 2, e: 3 }] },
      [{ contextName: 'userId', operator: 'IN', values: ['a'], inverted: false, caseInsensitive: true }],
      { name: 'v', weight: 500, payload: { type: 'json', value: '{"b":1,"a":2}' }, stickiness: 'default' },
    ];
    for (const value of values) {
      const { rows } = await server.ctx.db.query<{ v: unknown }>('SELECT $1::jsonb AS v', [
        JSON.stringify(value),
      ]);
      expect(JSON.stringify(asStoredJson(value))).toBe(JSON.stringify(rows[0]!.v));
    }
  });
});
