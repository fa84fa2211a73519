import { describe, expect, it } from 'vitest';
import {
  callers,
  createFeature,
  eventsOf,
  expectCallerRefusals,
  expectRefused,
  readFeature,
  server,
  setEnabled,
  useFeatureServer,
} from '../../test/features.js';
import { flags } from '../../test/flags.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, writeDirectly } from '../../test/server.js';

useFeatureServer();

const list = async () =>
  (await server.request('GET', '/api/admin/environments', admin(server))).body.environments;
const one = async (name: string) => {
  const res = await server.request('GET', `/api/admin/environments/${name}`, admin(server));
  return res.status === 200 ? res.body : res.status;
};

describe('GET /api/admin/environments', () => {
  it('lists the seeded environments in sort order, with their counts', async () => {
    await createFeature(server, 'env-count');
    await setEnabled(server, 'env-count', 'production', true);
    const res = await server.request('GET', '/api/admin/environments', { token: callers.viewer.pat });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.environments).toEqual([
      {
        name: 'development',
        type: 'development',
        enabled: true,
        protected: false,
        sortOrder: 100,
        projectCount: 1,
        apiTokenCount: 1,
        enabledToggleCount: 0,
      },
      {
        name: 'production',
        type: 'production',
        enabled: true,
        protected: false,
        sortOrder: 200,
        projectCount: 1,
        apiTokenCount: 0,
        enabledToggleCount: 1,
      },
    ]);
    expect(await one('production')).toMatchObject({ name: 'production', enabledToggleCount: 1 });
    expect(await one('nope')).toBe(404);
    expect((await server.request('GET', '/api/admin/environments')).status).toBe(401);
  });
});

describe('POST /api/admin/environments', () => {
  it('creates an environment: 201, listed last, environment-created, linked to no project', async () => {
    const res = await server.request('POST', '/api/admin/environments', {
      ...admin(server),
      body: { name: 'staging', type: 'test' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'staging',
      type: 'test',
      enabled: true,
      protected: false,
      projectCount: 0,
    });
    expect((await list()).map((e: { name: string }) => e.name)).toEqual([
      'development',
      'production',
      'staging',
    ]);
    expect((await eventsOf(server, 'type=environment-created'))[0]).toMatchObject({
      environment: 'staging',
      data: { name: 'staging', type: 'test' },
    });
    const project = await server.request('GET', '/api/admin/projects/default', admin(server));
    expect(project.body.environments).not.toContainEqual({ environment: 'staging' });
  });

  it('puts a new environment beside the last when the last is at the highest position there is', async () => {
    const highest = await server.request('POST', '/api/admin/environments', {
      ...admin(server),
      body: { name: 'sorted-last', type: 'test', sortOrder: 2147483647 },
    });
    expect(highest.status).toBe(201);
    const next = await server.request('POST', '/api/admin/environments', {
      ...admin(server),
      body: { name: 'sorted-after', type: 'test' },
    });
    expect(next.status).toBe(201);
    expect(next.body.sortOrder).toBe(2147483647);
    for (const name of ['sorted-last', 'sorted-after']) {
      expect((await server.request('DELETE', `/api/admin/environments/${name}`, admin(server))).status).toBe(
        200,
      );
    }
  });

  it('refuses duplicates (409), bad bodies (400) and callers who are not Admins', async () => {
    const url = '/api/admin/environments';
    await expectRefused(
      server,
      409,
      () => server.request('POST', url, { ...admin(server), body: { name: 'staging', type: 'test' } }),
      list,
    );
    for (const body of [
      { name: 'qa' },
      { type: 'test' },
      { name: 'has space', type: 'test' },
      { name: 'x'.repeat(101), type: 'test' },
      { name: 'qa', type: 'test', enabled: 'yes' },
      { name: 'qa', type: 'test', sortOrder: 'first' },
      { name: 'qa', type: 'test', sortOrder: 1.5 },
      { name: 'qa', type: '' },
      { name: 'qa', type: 'test', protected: true },
    ]) {
      await expectRefused(
        server,
        400,
        () => server.request('POST', url, { ...admin(server), body }),
        list,
        JSON.stringify(body),
      );
    }
    const editor = await createUser(server, 2);
    await expectRefused(
      server,
      403,
      () => server.request('POST', url, { token: editor.pat, body: { name: 'qa', type: 'test' } }),
      list,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url, body: { name: 'qa', type: 'test' } },
      list,
    );
  });

  it('validates a name: 200 when free, 409 when taken, 400 when not URL-friendly', async () => {
    const validate = (name: unknown) =>
      server.request('POST', '/api/admin/environments/validate', { ...admin(server), body: { name } });
    expect((await validate('fresh')).status).toBe(200);
    expect((await validate('staging')).status).toBe(409);
    expect((await validate('not ok')).status).toBe(400);
  });
});

describe('changing environments', () => {
  it('updates type and sort order: 200 with the environment, environment-updated; renaming is 400', async () => {
    const res = await server.request('PUT', '/api/admin/environments/update/staging', {
      ...admin(server),
      body: { type: 'preproduction', sortOrder: 150 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'staging', type: 'preproduction', sortOrder: 150 });
    expect((await list()).map((e: { name: string }) => e.name)).toEqual([
      'development',
      'staging',
      'production',
    ]);
    expect((await eventsOf(server, 'type=environment-updated'))[0]).toMatchObject({
      preData: { type: 'test' },
      data: { type: 'preproduction', sortOrder: 150 },
    });
    const url = '/api/admin/environments/update/staging';
    for (const body of [{ name: 'renamed' }, { type: 5 }, { sortOrder: 'x' }, { color: 'red' }]) {
      await expectRefused(
        server,
        400,
        () => server.request('PUT', url, { ...admin(server), body }),
        list,
        JSON.stringify(body),
      );
    }
    await expectRefused(
      server,
      404,
      () =>
        server.request('PUT', '/api/admin/environments/update/nope', {
          ...admin(server),
          body: { type: 'test' },
        }),
      list,
    );
    await expectCallerRefusals(server, callers, { method: 'PUT', url, body: { type: 'test' } }, list);
  });

  it('turns an environment off and on: 204, environment-updated; new projects skip disabled ones', async () => {
    const off = await server.request('POST', '/api/admin/environments/staging/off', admin(server));
    expect(off.status).toBe(204);
    expect(await one('staging')).toMatchObject({ enabled: false });
    const before = await countEvents(server, 'environment-updated');
    expect((await server.request('POST', '/api/admin/environments/staging/off', admin(server))).status).toBe(
      204,
    );
    expect(await countEvents(server, 'environment-updated')).toBe(before);
    await server.request('POST', '/api/admin/environments/production/off', admin(server));
    await server.request('POST', '/api/admin/projects', {
      ...admin(server),
      body: { id: 'fresh', name: 'Fresh' },
    });
    const fresh = await server.request('GET', '/api/admin/projects/fresh', admin(server));
    expect(fresh.body.environments).toEqual([{ environment: 'development' }]);
    expect(
      (await server.request('POST', '/api/admin/environments/production/on', admin(server))).status,
    ).toBe(204);
    expect(await one('production')).toMatchObject({ enabled: true });
    await expectRefused(
      server,
      404,
      () => server.request('POST', '/api/admin/environments/nope/on', admin(server)),
      list,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url: '/api/admin/environments/staging/on', jsonBody: false },
      list,
    );
  });

  it('reorders environments: 200, one event per moved environment; unknown names change nothing', async () => {
    const before = await countEvents(server, 'environment-updated');
    const url = '/api/admin/environments/sort-order';
    const res = await server.request('PUT', url, {
      ...admin(server),
      body: { production: 50, development: 100 },
    });
    expect(res.status).toBe(200);
    expect((await list()).map((e: { name: string }) => e.name)).toEqual([
      'production',
      'development',
      'staging',
    ]);
    expect(await countEvents(server, 'environment-updated')).toBe(before + 1);
    await expectRefused(
      server,
      404,
      () => server.request('PUT', url, { ...admin(server), body: { development: 1, nope: 2 } }),
      list,
    );
    for (const body of [{ development: 'first' }, { development: 1.5 }, [1, 2]]) {
      await expectRefused(
        server,
        400,
        () => server.request('PUT', url, { ...admin(server), body }),
        list,
        JSON.stringify(body),
      );
    }
    await expectCallerRefusals(server, callers, { method: 'PUT', url, body: { development: 1 } }, list);
  });
});

describe('DELETE /api/admin/environments/:name', () => {
  it('deletes an environment with its feature settings: 200, environment-deleted', async () => {
    await server.request('POST', '/api/admin/projects/default/environments', {
      ...admin(server),
      body: { environment: 'staging' },
    });
    expect(
      (await readFeature(server, 'env-count')).body.environments.map((e: { name: string }) => e.name),
    ).toContain('staging');
    const res = await server.request('DELETE', '/api/admin/environments/staging', admin(server));
    expect(res.status).toBe(200);
    expect(await one('staging')).toBe(404);
    expect(
      (await readFeature(server, 'env-count')).body.environments.map((e: { name: string }) => e.name),
    ).not.toContain('staging');
    expect((await eventsOf(server, 'type=environment-deleted'))[0]).toMatchObject({
      environment: 'staging',
      preData: { name: 'staging' },
    });
  });

  it('refuses environments used by API tokens (409), protected ones (403) and unknown ones (404)', async () => {
    const res = await expectRefused(
      server,
      409,
      () => server.request('DELETE', '/api/admin/environments/development', admin(server)),
      list,
    );
    expect(res.body.message).toContain('API token');
    await server.request('POST', '/api/admin/environments', {
      ...admin(server),
      body: { name: 'locked', type: 'test' },
    });
    await writeDirectly(server, 'UPDATE environments SET protected = true WHERE name = $1', ['locked']);
    await expectRefused(
      server,
      403,
      () => server.request('DELETE', '/api/admin/environments/locked', admin(server)),
      list,
    );
    await expectRefused(
      server,
      403,
      () =>
        server.request('PUT', '/api/admin/environments/update/locked', {
          ...admin(server),
          body: { type: 'x' },
        }),
      list,
    );
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/environments/nope', admin(server)),
      list,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'DELETE', url: '/api/admin/environments/locked' },
      list,
    );
  });
});

describe('GET /api/admin/environments/project/:projectId', () => {
  it('lists every environment with whether the project has it', async () => {
    const res = await server.request('GET', '/api/admin/environments/project/fresh', admin(server));
    expect(res.status).toBe(200);
    const visible = Object.fromEntries(
      res.body.environments.map((e: { name: string; visible: boolean }) => [e.name, e.visible]),
    );
    expect(visible).toEqual({ production: false, development: true, locked: false });
    expect((await server.request('GET', '/api/admin/environments/project/nope', admin(server))).status).toBe(
      404,
    );
  });

  it('counts the project’s live flags switched on in each environment', async () => {
    const counted = async () => {
      const res = await server.request('GET', '/api/admin/environments/project/counted', admin(server));
      return Object.fromEntries(
        res.body.environments.map((e: { name: string; projectEnabledToggleCount: number }) => [
          e.name,
          e.projectEnabledToggleCount,
        ]),
      );
    };
    await server.request('POST', '/api/admin/projects', {
      ...admin(server),
      body: { id: 'counted', name: 'Counted' },
    });
    const f = flags(server, 'counted');
    for (const name of ['count-a', 'count-b', 'count-c']) await f.create(name);
    expect(await counted()).toEqual({ production: 0, development: 0, locked: 0 });
    for (const name of ['count-a', 'count-b', 'count-c']) await f.enable(name, 'development');
    await f.archive(['count-c']);
    expect(await counted()).toEqual({ production: 0, development: 2, locked: 0 });
  });
});
