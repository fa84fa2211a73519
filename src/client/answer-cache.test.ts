import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { answerFor, type FeatureQuery } from './answers.js';
import { FlagSnapshot } from './snapshot.js';

const allProjects = `*:development.${'e'.repeat(56)}`;
let server: TestServer;

// One flag whose answer is about 750 kB: 30 constraints of 250 values of 100 characters.
beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: allProjects });
  const f = flags(server);
  await f.create('big');
  const values = (c: number) => Array.from({ length: 250 }, (_, i) => `${c}-${i}-`.padEnd(100, 'v'));
  await f.addStrategy('big', 'development', {
    name: 'default',
    constraints: Array.from({ length: 30 }, (_, c) => ({
      contextName: 'userId',
      operator: 'IN',
      values: values(c),
    })),
  });
  await f.tag('big', 'simple', 'all');
});
afterAll(() => server.close());

const query = (q: Partial<FeatureQuery>): FeatureQuery => ({
  environment: 'development',
  projects: '*',
  inlineSegments: false,
  ...q,
});
const bytesHeld = (snapshot: FlagSnapshot) =>
  [...snapshot.answerCache().values()].reduce((n, a) => n + a.body.length, 0);

describe('the client answers cache', () => {
  it('holds at most 64 MiB of answers, however many queries ask for a large one', async () => {
    const snapshot = new FlagSnapshot(server.ctx.model);
    for (let i = 0; i < 120; i++) {
      const answer = answerFor(snapshot, query({ tags: ['simple:all', `simple:odd-${i}`] }));
      expect(answer.features.map((f) => f.name)).toEqual(['big']);
    }
    expect(bytesHeld(snapshot)).toBeGreaterThan(32 * 1024 * 1024);
    expect(bytesHeld(snapshot)).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it('keeps no answer for a query naming a project that does not exist', async () => {
    const snapshot = new FlagSnapshot(server.ctx.model);
    for (let i = 0; i < 100; i++) {
      expect(answerFor(snapshot, query({ projects: [`no-such-project-${i}`] })).features).toEqual([]);
    }
    expect(snapshot.answerCache().size).toBe(0);
    answerFor(snapshot, query({ projects: ['default'] }));
    expect(snapshot.answerCache().size).toBe(1);
  });

  it('answers a query naming an unknown project over HTTP: no flags, its ETag, 304 on a repeat', async () => {
    const url = '/api/client/features?project=no-such-project';
    const res = await server.request('GET', url, { token: allProjects });
    expect(res.status).toBe(200);
    expect(res.body.features).toEqual([]);
    const again = await server.request('GET', url, {
      token: allProjects,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.status).toBe(304);
    const known = await server.request('GET', '/api/client/features?project=default', { token: allProjects });
    expect(known.body.features.map((f: { name: string }) => f.name)).toEqual(['big']);
  });
});
