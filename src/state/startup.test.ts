import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '../../test/features.js';
import { countEvents, startTestServer, type TestServer } from '../../test/server.js';
import { prepareDatabase } from '../bootstrap.js';
import { loadConfig } from '../config.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-import-file-'));
const file = path.join(dir, 'state.json');

const state = (description: string) => ({
  version: 4,
  projects: [{ id: 'declared', name: 'Declared' }],
  features: [{ name: 'from-file', project: 'declared', description }],
  featureEnvironments: [{ featureName: 'from-file', environment: 'production', enabled: true }],
  featureStrategies: [
    {
      featureName: 'from-file',
      environment: 'production',
      name: 'userWithId',
      parameters: { userIds: '1,2' },
    },
  ],
});

let server: TestServer;
beforeAll(async () => {
  writeFileSync(file, JSON.stringify(state('Declared in a file')));
  server = await startTestServer({ IMPORT_FILE: file });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const read = () =>
  server.request('GET', '/api/admin/projects/declared/features/from-file', { token: server.adminToken });

/** Runs the start-up steps again on the same database, as a restart with these variables would. */
async function restart(env: Record<string, string>) {
  const config = { ...server.ctx.config, ...loadConfig({ IMPORT_FILE: file, ...env }) };
  await prepareDatabase({ ...server.ctx, config });
  await server.ctx.sync.settled();
}

describe('IMPORT_FILE', () => {
  it('imports the state at start, as the system', async () => {
    const res = await read();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ project: 'declared', description: 'Declared in a file' });
    const production = res.body.environments.find((e: { name: string }) => e.name === 'production');
    expect(production).toMatchObject({
      enabled: true,
      strategies: [{ id: 'from-file:production:0', name: 'userWithId' }],
    });
    expect((await eventsOf(server, 'type=feature-import'))[0]).toMatchObject({
      featureName: 'from-file',
      createdBy: 'system',
    });
    // A strategy without an id in the file gets one made of its place, which paths take as it is.
    const strategy = await server.request(
      'GET',
      '/api/admin/projects/declared/features/from-file/environments/production/strategies/from-file:production:0',
      { token: server.adminToken },
    );
    expect(strategy.status).toBe(200);
    expect(strategy.body).toMatchObject({ name: 'userWithId', parameters: { userIds: '1,2' } });
  });

  it('a restart with the same file changes nothing; a changed file wins (IMPORT_KEEP_EXISTING is false)', async () => {
    const events = await countEvents(server);
    await restart({});
    expect(await countEvents(server)).toBe(events);
    writeFileSync(file, JSON.stringify(state('Changed in the file')));
    await restart({});
    expect((await read()).body.description).toBe('Changed in the file');
    expect(await countEvents(server)).toBe(events + 1);
  });

  it('IMPORT_KEEP_EXISTING=true leaves what exists alone', async () => {
    writeFileSync(file, JSON.stringify(state('Ignored')));
    await restart({ IMPORT_KEEP_EXISTING: 'true' });
    expect((await read()).body.description).toBe('Changed in the file');
  });

  it('IMPORT_DROP_BEFORE_IMPORT=true recreates the declared state: what the file does not hold is gone', async () => {
    const made = await server.request('POST', '/api/admin/projects/default/features', {
      token: server.adminToken,
      body: { name: 'made-by-hand' },
    });
    expect(made.status).toBe(201);
    await restart({ IMPORT_DROP_BEFORE_IMPORT: 'true' });
    const gone = await server.request('GET', '/api/admin/projects/default/features/made-by-hand', {
      token: server.adminToken,
    });
    expect(gone.status).toBe(404);
    expect((await read()).body.description).toBe('Ignored');
  });

  it('stops the start with a message naming the file and the problem', async () => {
    const bad = state('x');
    bad.featureStrategies[0]!.name = 'no-such-type';
    writeFileSync(file, JSON.stringify(bad));
    await expect(restart({})).rejects.toThrow(
      /IMPORT_FILE: ".*state.json" cannot be imported: .*\n {2}- featureStrategies\[0\]\.name: /,
    );
    writeFileSync(file, '{ not json');
    await expect(restart({})).rejects.toThrow(/is not JSON/);
    writeFileSync(file, JSON.stringify({ features: [] }));
    await expect(restart({})).rejects.toThrow(/is not a state document:\n {2}- version: /);
    await expect(restart({ IMPORT_FILE: path.join(dir, 'missing.json') })).rejects.toThrow(/cannot read/);
    expect((await read()).body.description).toBe('Ignored');
  });

  it('refuses a flag that is neither true nor false', () => {
    expect(() => loadConfig({ IMPORT_DROP_BEFORE_IMPORT: 'yes please' })).toThrow(
      /IMPORT_DROP_BEFORE_IMPORT/,
    );
    expect(loadConfig({ IMPORT_KEEP_EXISTING: '1' }).importKeepExisting).toBe(true);
    expect(loadConfig({}).importFile).toBeUndefined();
  });
});
