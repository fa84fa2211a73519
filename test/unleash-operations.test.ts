import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './server.js';

// The operations of Unleash 8.2.0 (open source), read once from that server's /docs/openapi.json
// (`../shared/bench-vs-unleash` installs and starts it) and kept as paths, methods and ids.
const unleash: { paths: Record<string, Record<string, { operationId: string }>> } = JSON.parse(
  readFileSync(new URL('./fixtures/unleash-8.2.0-operations.json', import.meta.url), 'utf8'),
);

/** What Flagpole leaves out on purpose: telemetry, splash screens, UI error reports, SCIM, Edge tokens. */
const NOT_OFFERED = new Set([
  'GET /api/admin/telemetry/settings',
  'POST /api/admin/splash/{}',
  'POST /api/admin/record-ui-error',
  'DELETE /api/admin/user-admin/scim-users',
  'POST /edge/issue-token',
]);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `GET /api/admin/projects/{}/features/{}`: parameter names differ between the two documents. */
function operations(paths: Record<string, Record<string, unknown>>): Set<string> {
  const found = new Set<string>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const method of Object.keys(methods)) {
      if (METHODS.includes(method)) found.add(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`);
    }
  }
  return found;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("Unleash 8.2.0's operations", () => {
  it('are answered by Flagpole, all but the few it leaves out on purpose', async () => {
    const ours = operations((await server.request('GET', '/docs/json')).body.paths);
    const theirs = operations(unleash.paths);
    expect(theirs.size).toBe(211);
    const missing = [...theirs].filter((op) => !ours.has(op));
    const covered = theirs.size - missing.length;
    console.log(`Unleash operations covered: ${covered} of ${theirs.size}; missing: ${missing.join(', ')}`);
    expect(missing.filter((op) => !NOT_OFFERED.has(op))).toEqual([]);
    expect(covered).toBeGreaterThanOrEqual(200);
  });
});
