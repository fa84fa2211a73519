import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer, writeDirectly } from '../../test/server.js';

let server: TestServer;
const COUNT = 10_000;

beforeAll(async () => {
  server = await startTestServer();
  const tag = await server.request('POST', '/api/admin/tags', {
    token: server.adminToken,
    body: { type: 'simple', value: 'tenth' },
  });
  expect(tag.status).toBe(201);
  // A shortcut, in one statement: ten thousand features in both environments, every tenth tagged.
  await writeDirectly(
    server,
    `WITH f AS (
       INSERT INTO features (name, project, description, type)
       SELECT 'flag-' || lpad(i::text, 5, '0'), 'default', 'feature number ' || i,
              CASE WHEN i % 3 = 0 THEN 'experiment' ELSE 'release' END
         FROM generate_series(1, ${COUNT}) AS i
       RETURNING name),
     e AS (
       INSERT INTO feature_environments (feature_name, environment, enabled)
       SELECT f.name, env.name, f.name LIKE '%7' FROM f CROSS JOIN (VALUES ('development'), ('production')) env(name))
     INSERT INTO feature_tags (feature_name, tag_type, tag_value)
     SELECT name, 'simple', 'tenth' FROM f WHERE right(name, 1) = '0'`,
  );
}, 120_000);
afterAll(() => server.close());

it(`searches ${COUNT.toLocaleString('en')} features in milliseconds`, async () => {
  const url =
    '/api/admin/search/features?query=number&type=IS:experiment&tag=INCLUDE:simple:tenth' +
    '&status=production:disabled&sortBy=name&sortOrder=desc&offset=10&limit=50';
  const first = await server.request('GET', url, { token: server.adminToken });
  expect(first.status).toBe(200);
  const timings: number[] = [];
  let last = first;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    last = await server.request('GET', url, { token: server.adminToken });
    timings.push(performance.now() - started);
  }
  // Multiples of 30 (experiment and tagged) not ending in 7: every one of the 333.
  expect(last.body.total).toBe(333);
  expect(last.body.features).toHaveLength(50);
  expect(last.body.features[0].name).toBe('flag-09690');
  const all = await server.request('GET', '/api/admin/search/features?limit=1', { token: server.adminToken });
  expect(all.body.total).toBe(COUNT);
  const median = [...timings].sort((a, b) => a - b)[2]!;
  console.log(
    `feature search over ${COUNT} features: median ${median.toFixed(1)} ms, ` +
      `runs ${timings.map((t) => t.toFixed(1)).join(', ')} ms`,
  );
  expect(median).toBeLessThan(1000);
});
