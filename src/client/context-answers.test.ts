import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { startTestServer, type TestServer } from '../../test/server.js';

// The frontend API keeps answers by what the flags read of the context. These are the contexts
// whose answers must not be kept, or only apart: what a segment or a parent reads, chance, the clock.

const frontendToken = `default:development.${'5'.repeat(56)}`;
let chanceToken: string;
let clockToken: string;
let server: TestServer;

async function tokenFor(project: string): Promise<string> {
  const res = await server.request('POST', '/api/admin/api-tokens', {
    token: server.adminToken,
    body: { tokenName: project, type: 'frontend', environment: 'development', projects: [project] },
  });
  expect(res.status).toBe(201);
  return res.body.secret;
}

beforeAll(async () => {
  server = await startTestServer({ INIT_FRONTEND_API_TOKENS: frontendToken });
  for (const id of ['chance', 'clock']) {
    await server.request('POST', '/api/admin/projects', { token: server.adminToken, body: { id, name: id } });
  }
  chanceToken = await tokenFor('chance');
  clockToken = await tokenFor('clock');
  const f = flags(server);
  const segment = await f.createSegment({
    name: 'europe',
    constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
  });
  await f.create('european');
  await f.addStrategy('european', 'development', { name: 'default', segments: [segment.id] });
  await f.enable('european', 'development');
  await f.create('paying');
  await f.addStrategy('paying', 'development', {
    name: 'default',
    constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }],
  });
  await f.enable('paying', 'development');
  await f.create('pro-extra');
  await f.addDependency('pro-extra', { feature: 'paying' });
  await f.enable('pro-extra', 'development');
  const chance = flags(server, 'chance');
  await chance.create('coin');
  await chance.addStrategy('coin', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '50', stickiness: 'random', groupId: 'coin' },
  });
  await chance.enable('coin', 'development');
  const clock = flags(server, 'clock');
  await clock.create('until-soon');
  await clock.addStrategy('until-soon', 'development', {
    name: 'default',
    constraints: [
      {
        contextName: 'currentTime',
        operator: 'DATE_BEFORE',
        value: new Date(Date.now() + 1500).toISOString(),
      },
    ],
  });
  await clock.enable('until-soon', 'development');
});
afterAll(() => server.close());

const names = async (query: string, token = frontendToken) => {
  const res = await server.request('GET', `/api/frontend${query}`, { token });
  expect(res.status).toBe(200);
  return (res.body.toggles as { name: string }[]).map((t) => t.name).sort();
};

describe('answers kept by context', () => {
  it("tell apart contexts that differ in what a flag's segment or parent reads", async () => {
    expect(await names('?userId=a&region=eu&plan=pro')).toEqual(['european', 'paying', 'pro-extra']);
    expect(await names('?userId=a&region=us&plan=pro')).toEqual(['paying', 'pro-extra']);
    expect(await names('?userId=a&region=us&plan=free')).toEqual([]);
    expect(await names('?userId=a&region=eu&plan=pro')).toEqual(['european', 'paying', 'pro-extra']);
  });

  it('are not kept for a flag left to chance', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 60 && seen.size < 2; i++) seen.add((await names('?userId=a', chanceToken)).join());
    expect(seen).toEqual(new Set(['', 'coin']));
  });

  it('are not kept for a flag that reads the clock', async () => {
    expect(await names('?userId=a', clockToken)).toEqual(['until-soon']);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(await names('?userId=a', clockToken)).toEqual([]);
  });
});
