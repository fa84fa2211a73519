import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, grantRole } from '../../test/features.js';
import { flags } from '../../test/flags.js';
import { send } from '../../test/requests.js';
import {
  createProject,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let viewer: TestUser;
let owner: TestUser;
let member: TestUser;

const names = (list: { name: string }[]) => list.map((f) => f.name);
const base = '/api/admin/projects/alpha/context';
const read = async (name: string) => (await send(server, 'GET', `/api/admin/context/${name}`)).body;

beforeAll(async () => {
  server = await startTestServer();
  await createProject(server, 'alpha');
  await createProject(server, 'beta');
  viewer = await createUser(server, 3);
  owner = await createUser(server, 3);
  member = await createUser(server, 3);
  await grantRole(server, owner.id, 'alpha', 4);
  await grantRole(server, member.id, 'alpha', 5);
  await flags(server, 'alpha').create('alpha-flag');
  await flags(server, 'beta').create('beta-flag');
});
afterAll(() => server.close());

describe('context fields of a project', () => {
  it('POST creates one (201, Location, project in the answer), by an Owner of the project', async () => {
    const res = await send(
      server,
      'POST',
      base,
      {
        name: 'tier',
        description: 'Plan',
        legalValues: [{ value: 'free' }, { value: 'pro' }],
        project: 'beta',
      },
      owner.pat,
    );
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe('context/tier');
    expect(res.body).toMatchObject({
      name: 'tier',
      description: 'Plan',
      project: 'alpha',
      stickiness: false,
    });
    expect(await lastEvent(server, 'context-field-created')).toMatchObject({
      project: 'alpha',
      createdBy: owner.username,
      data: { name: 'tier', project: 'alpha' },
    });
  });

  it('lists them apart from the instance fields, unless asked to include the others', async () => {
    expect(names((await send(server, 'GET', base, undefined, viewer.pat)).body)).toEqual(['tier']);
    expect(names((await send(server, 'GET', `${base}?include=root`)).body)).toContain('userId');
    expect(names((await send(server, 'GET', '/api/admin/context')).body)).not.toContain('tier');
    expect(names((await send(server, 'GET', '/api/admin/context?include=project')).body)).toContain('tier');
    expect((await send(server, 'GET', '/api/admin/projects/beta/context')).body).toEqual([]);
    expect((await send(server, 'GET', '/api/admin/projects/nowhere/context')).status).toBe(404);
  });

  it('GET one: the project path reaches only its own fields', async () => {
    expect((await send(server, 'GET', `${base}/tier`)).body).toMatchObject({
      name: 'tier',
      project: 'alpha',
    });
    expect((await send(server, 'GET', '/api/admin/projects/beta/context/tier')).status).toBe(404);
    expect((await send(server, 'GET', `${base}/userId`)).status).toBe(404);
    expect((await send(server, 'GET', '/api/admin/context/tier')).body).toMatchObject({ project: 'alpha' });
  });

  it('validate: 200 for a free name, 409 for one taken anywhere (names are shared)', async () => {
    expect((await send(server, 'POST', `${base}/validate`, { name: 'free-name' })).status).toBe(200);
    expect((await send(server, 'POST', `${base}/validate`, { name: 'userId' })).status).toBe(409);
    expect(
      (await send(server, 'POST', '/api/admin/projects/beta/context/validate', { name: 'tier' })).status,
    ).toBe(409);
    expect(
      (await send(server, 'POST', '/api/admin/projects/nowhere/context/validate', { name: 'x' })).status,
    ).toBe(404);
  });

  it('refuses a name taken (409), an unknown project (404), a bad body (400), and callers without the right', async () => {
    const list = () => send(server, 'GET', '/api/admin/context?include=project').then((r) => r.body);
    await expectRefused(server, 409, () => send(server, 'POST', base, { name: 'userId' }), list);
    await expectRefused(
      server,
      409,
      () => send(server, 'POST', '/api/admin/projects/beta/context', { name: 'tier' }),
      list,
    );
    await expectRefused(
      server,
      404,
      () => send(server, 'POST', '/api/admin/projects/nowhere/context', { name: 'x' }),
      list,
    );
    await expectRefused(server, 400, () => send(server, 'POST', base, { name: 'has space' }), list);
    await expectRefused(server, 403, () => send(server, 'POST', base, { name: 'x' }, member.pat), list);
    await expectRefused(
      server,
      403,
      () => send(server, 'POST', '/api/admin/projects/beta/context', { name: 'x' }, owner.pat),
      list,
    );
    await expectRefused(server, 401, () => send(server, 'POST', base, { name: 'x' }, ''), list);
    await expectRefused(
      server,
      415,
      () =>
        server.request('POST', base, {
          token: server.adminToken,
          body: '{"name":"x"}',
          contentType: 'text/plain',
        }),
      list,
    );
  });

  it('PUT and legal values change it, with context-field-updated; other projects cannot reach it', async () => {
    const put = await send(
      server,
      'PUT',
      `${base}/tier`,
      { description: 'Plans', legalValues: [{ value: 'free' }] },
      owner.pat,
    );
    expect(put.status, put.text).toBe(200);
    expect(await read('tier')).toMatchObject({ description: 'Plans', legalValues: [{ value: 'free' }] });
    expect(await lastEvent(server, 'context-field-updated')).toMatchObject({
      project: 'alpha',
      data: { legalValues: [{ value: 'free' }] },
      preData: { legalValues: [{ value: 'free' }, { value: 'pro' }] },
    });
    expect(
      (await send(server, 'POST', `${base}/tier/legal-values`, { value: 'enterprise' }, owner.pat)).status,
    ).toBe(200);
    expect((await read('tier')).legalValues).toEqual([{ value: 'free' }, { value: 'enterprise' }]);
    expect(
      (await send(server, 'DELETE', `${base}/tier/legal-values/free`, undefined, owner.pat)).status,
    ).toBe(200);
    expect((await read('tier')).legalValues).toEqual([{ value: 'enterprise' }]);
    const before = () => read('tier');
    await expectRefused(server, 404, () => send(server, 'DELETE', `${base}/tier/legal-values/free`), before);
    await expectRefused(
      server,
      404,
      () => send(server, 'PUT', '/api/admin/projects/beta/context/tier', {}),
      before,
    );
    await expectRefused(
      server,
      404,
      () => send(server, 'POST', `${base}/userId/legal-values`, { value: 'x' }),
      before,
    );
    await expectRefused(server, 403, () => send(server, 'PUT', `${base}/tier`, {}, member.pat), before);
    await expectRefused(
      server,
      403,
      () => send(server, 'POST', `${base}/tier/legal-values`, { value: 'x' }, viewer.pat),
      before,
    );
    await expectRefused(
      server,
      400,
      () => send(server, 'POST', `${base}/tier/legal-values`, { value: '' }),
      before,
    );
  });

  it("only the project's constraints may use it, checked against its legal values", async () => {
    const strategy = (project: string, feature: string, values: string[]) =>
      send(
        server,
        'POST',
        `/api/admin/projects/${project}/features/${feature}/environments/development/strategies`,
        {
          name: 'default',
          constraints: [{ contextName: 'tier', operator: 'IN', values }],
        },
      );
    const ok = await strategy('alpha', 'alpha-flag', ['enterprise']);
    expect(ok.status, ok.text).toBe(200);
    expect((await strategy('alpha', 'alpha-flag', ['gold'])).status).toBe(400);
    const elsewhere = await strategy('beta', 'beta-flag', ['enterprise']);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.details[0]).toMatchObject({ path: 'constraints.0.contextName' });
    const segment = (project: string | null) =>
      send(server, 'POST', '/api/admin/segments', {
        name: `tiers-${project}`,
        project,
        constraints: [{ contextName: 'tier', operator: 'IN', values: ['enterprise'] }],
      });
    expect((await segment('alpha')).status).toBe(201);
    expect((await segment('beta')).status).toBe(400);
    expect((await segment(null)).status).toBe(400);
  });

  it('GET …/:name/strategies lists the strategies using a field, on both paths', async () => {
    const all = await send(server, 'GET', '/api/admin/context/tier/strategies', undefined, viewer.pat);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      strategies: [
        {
          id: expect.any(String),
          featureName: 'alpha-flag',
          projectId: 'alpha',
          environment: 'development',
          strategyName: 'default',
        },
      ],
    });
    expect((await send(server, 'GET', `${base}/tier/strategies`)).body).toEqual(all.body);
    expect((await send(server, 'GET', '/api/admin/projects/beta/context/tier/strategies')).body).toEqual({
      strategies: [],
    });
    expect((await send(server, 'GET', '/api/admin/context/nothing/strategies')).body).toEqual({
      strategies: [],
    });
    expect((await send(server, 'GET', '/api/admin/context/tier/strategies', undefined, '')).status).toBe(401);
  });

  it('DELETE refuses a field in use (409), then deletes it with context-field-deleted', async () => {
    await expectRefused(
      server,
      409,
      () => send(server, 'DELETE', `${base}/tier`),
      () => read('tier'),
    );
    await expectRefused(
      server,
      403,
      () => send(server, 'DELETE', `${base}/tier`, undefined, member.pat),
      () => read('tier'),
    );
    expect((await send(server, 'POST', `${base}`, { name: 'spare' }, owner.pat)).status).toBe(201);
    expect((await send(server, 'DELETE', `${base}/spare`, undefined, owner.pat)).status).toBe(200);
    expect((await send(server, 'GET', '/api/admin/context/spare')).status).toBe(404);
    expect(await lastEvent(server, 'context-field-deleted')).toMatchObject({
      project: 'alpha',
      preData: { name: 'spare', project: 'alpha' },
    });
    expect((await send(server, 'DELETE', `${base}/spare`)).status).toBe(404);
  });

  it('the instance path may create a field of a project too', async () => {
    const res = await send(server, 'POST', '/api/admin/context', { name: 'region-beta', project: 'beta' });
    expect(res.status).toBe(201);
    expect(res.body.project).toBe('beta');
    expect(names((await send(server, 'GET', '/api/admin/projects/beta/context')).body)).toEqual([
      'region-beta',
    ]);
    expect(
      (await send(server, 'POST', '/api/admin/context', { name: 'x-nowhere', project: 'nowhere' })).status,
    ).toBe(404);
  });

  it("Unleash's export names a field's project; an import makes it a field of the project imported into", async () => {
    const exported = await send(server, 'POST', '/api/admin/features-batch/export', {
      features: ['alpha-flag'],
      environment: 'development',
    });
    expect(exported.body.contextFields).toEqual([
      expect.objectContaining({ name: 'tier', project: 'alpha' }),
    ]);
    const data = {
      features: [{ name: 'imported-flag' }],
      featureStrategies: [
        {
          name: 'default',
          featureName: 'imported-flag',
          constraints: [{ contextName: 'imported-field', operator: 'IN', values: ['x'] }],
        },
      ],
      tagTypes: [],
      contextFields: [{ name: 'imported-field', project: 'elsewhere', legalValues: [{ value: 'x' }] }],
    };
    const res = await send(server, 'POST', '/api/admin/features-batch/import', {
      project: 'beta',
      environment: 'development',
      data,
    });
    expect(res.status, res.text).toBe(200);
    expect(await read('imported-field')).toMatchObject({ project: 'beta' });
    expect((await send(server, 'DELETE', '/api/admin/projects/beta/features/imported-flag')).status).toBe(
      202,
    );
  });

  it('deleting the project deletes its fields, each with context-field-deleted', async () => {
    expect((await send(server, 'DELETE', '/api/admin/projects/beta/features/beta-flag')).status).toBe(202);
    expect((await send(server, 'DELETE', '/api/admin/projects/beta')).status).toBe(200);
    expect((await send(server, 'GET', '/api/admin/context/region-beta')).status).toBe(404);
    expect(await lastEvent(server, 'context-field-deleted')).toMatchObject({
      project: 'beta',
      preData: { name: 'region-beta' },
    });
  });
});
