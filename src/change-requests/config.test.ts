import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../test/access.js';
import { featureEnvironment, projectMember } from '../../test/feature-ops.js';
import { asAdmin, expectStatus } from '../../test/requests.js';
import {
  createFeature,
  createProject,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';
import { unleashExport } from '../../test/unleash-export.js';

let server: TestServer;
let editor: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  editor = await createUser(server, 2);
});
afterAll(() => server.close());

const CONFIG = (project: string) => `/api/admin/projects/${project}/change-requests/config`;
const CONFIGURE = (project: string, environment: string) =>
  `/api/admin/projects/${project}/environments/${environment}/change-requests/config`;
const configOf = async (project: string) => (await expectStatus(server, 200, 'GET', CONFIG(project))).body;
const toggle = (user: TestUser, project: string, feature: string, environment: string, on = true) =>
  server.request(
    'POST',
    `/api/admin/projects/${project}/features/${feature}/environments/${environment}/${on ? 'on' : 'off'}`,
    { token: user.pat },
  );

describe('change request configuration of a project environment', () => {
  it('lists every environment of the project, none needing change requests at first', async () => {
    await createProject(server, 'configured');
    expect(await configOf('configured')).toEqual([
      {
        environment: 'development',
        type: 'development',
        changeRequestEnabled: false,
        requiredApprovals: null,
      },
      { environment: 'production', type: 'production', changeRequestEnabled: false, requiredApprovals: null },
    ]);
    // Anyone signed in may read it: it says whether their edits will be refused.
    const viewer = await createUser(server, 3);
    expect((await server.request('GET', CONFIG('configured'), { token: viewer.pat })).status).toBe(200);
    expect((await asAdmin(server, 'GET', CONFIG('nowhere'))).status).toBe(404);
  });

  it('turns them on with the approvals (taken into 1..10) and off, one event each', async () => {
    const put = (body: unknown) => asAdmin(server, 'PUT', CONFIGURE('configured', 'production'), body);
    const on = await put({ changeRequestsEnabled: true, requiredApprovals: 2 });
    expect(on.status, on.text).toBe(200);
    expect(on.text).toBe('');
    expect((await configOf('configured'))[1]).toEqual({
      environment: 'production',
      type: 'production',
      changeRequestEnabled: true,
      requiredApprovals: 2,
    });
    expect(await lastEvent(server, 'change-request-configuration-updated')).toMatchObject({
      project: 'configured',
      environment: 'production',
      data: { changeRequestsEnabled: true, requiredApprovals: 2 },
    });
    await put({ changeRequestsEnabled: true, requiredApprovals: 40 });
    expect((await configOf('configured'))[1].requiredApprovals).toBe(10);
    await put({ changeRequestsEnabled: true, requiredApprovals: 0 });
    expect((await configOf('configured'))[1].requiredApprovals).toBe(1);
    await put({ changeRequestsEnabled: true });
    expect((await configOf('configured'))[1].requiredApprovals).toBe(1);
    await put({ changeRequestsEnabled: false, requiredApprovals: 3 });
    expect((await configOf('configured'))[1]).toMatchObject({
      changeRequestEnabled: false,
      requiredApprovals: null,
    });
    expect(await lastEvent(server, 'change-request-configuration-updated')).toMatchObject({
      data: { changeRequestsEnabled: false, requiredApprovals: null },
    });
  });

  it('refuses a bad body (400), an environment not in the project or a project that does not exist (404)', async () => {
    const bad = await asAdmin(server, 'PUT', CONFIGURE('configured', 'production'), { requiredApprovals: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ name: 'ValidationError' });
    const fraction = await asAdmin(server, 'PUT', CONFIGURE('configured', 'production'), {
      changeRequestsEnabled: true,
      requiredApprovals: 1.5,
    });
    expect(fraction.status).toBe(400);
    await expectStatus(server, 201, 'POST', '/api/admin/environments', { name: 'staging', type: 'test' });
    const unlinked = await asAdmin(server, 'PUT', CONFIGURE('configured', 'staging'), {
      changeRequestsEnabled: true,
    });
    expect(unlinked.status).toBe(404);
    expect(unlinked.body.message).toContain('"staging" is not enabled in the project "configured"');
    const missing = await asAdmin(server, 'PUT', CONFIGURE('nowhere', 'production'), {
      changeRequestsEnabled: true,
    });
    expect(missing.status).toBe(404);
    expect((await configOf('configured')).map((e: any) => e.changeRequestEnabled)).toEqual([false, false]);
  });

  it('lets those who may update the project, or write its change request configuration, change it', async () => {
    const body = { changeRequestsEnabled: true, requiredApprovals: 1 };
    // The Editor changes flags everywhere but not projects' settings.
    const byEditor = await server.request('PUT', CONFIGURE('configured', 'development'), {
      token: editor.pat,
      body,
    });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.name).toBe('NoAccessError');
    const writer = await projectMember(server, 'configured', ['PROJECT_CHANGE_REQUEST_WRITE']);
    const byWriter = await server.request('PUT', CONFIGURE('configured', 'development'), {
      token: writer.pat,
      body,
    });
    expect(byWriter.status, byWriter.text).toBe(200);
    expect((await configOf('configured'))[0].changeRequestEnabled).toBe(true);
    // Its permission is the project's: it changes nothing in another one.
    const elsewhere = await server.request('PUT', CONFIGURE('default', 'development'), {
      token: writer.pat,
      body,
    });
    expect(elsewhere.status).toBe(403);
  });

  it('can be set when the project is made, for environments it gets', async () => {
    const made = await asAdmin(server, 'POST', '/api/admin/projects', {
      id: 'born-guarded',
      name: 'Born guarded',
      changeRequestEnvironments: [{ name: 'production', requiredApprovals: 3 }, { name: 'development' }],
    });
    expect(made.status, made.text).toBe(201);
    // The staging environment an earlier test made is enabled: the project gets it too, unguarded.
    expect((await configOf('born-guarded')).map((e: any) => [e.environment, e.requiredApprovals])).toEqual([
      ['development', 1],
      ['production', 3],
      ['staging', null],
    ]);
    const refused = await asAdmin(server, 'POST', '/api/admin/projects', {
      id: 'never-made',
      name: 'Never made',
      changeRequestEnvironments: [{ name: 'moon' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].path).toBe('changeRequestEnvironments.0.name');
    expect((await asAdmin(server, 'GET', '/api/admin/projects/never-made')).status).toBe(404);
  });

  it('lists the change request permissions among those a role can hold, in no predefined role', async () => {
    const res = await expectStatus(server, 200, 'GET', '/api/admin/permissions');
    const names = JSON.stringify(res.body);
    for (const name of [
      'APPROVE_CHANGE_REQUEST',
      'APPLY_CHANGE_REQUEST',
      'SKIP_CHANGE_REQUEST',
      'PROJECT_CHANGE_REQUEST_READ',
      'PROJECT_CHANGE_REQUEST_WRITE',
    ]) {
      expect(names).toContain(`"${name}"`);
    }
    const editorRole = await expectStatus(server, 200, 'GET', '/api/admin/roles/2');
    expect(JSON.stringify(editorRole.body)).not.toContain('CHANGE_REQUEST');
  });
});

describe('direct changes where change requests are required', () => {
  beforeAll(async () => {
    await createProject(server, 'guarded');
    for (const name of ['g-flag', 'g-parent']) await createFeature(server, name, 'guarded');
    await expectStatus(server, 200, 'PUT', CONFIGURE('guarded', 'production'), {
      changeRequestsEnabled: true,
    });
  });

  it('refuses switching a flag or changing its strategies there without SKIP_CHANGE_REQUEST; other environments take them', async () => {
    const refused = await toggle(editor, 'guarded', 'g-flag', 'production');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ name: 'NoAccessError' });
    expect(refused.body.message).toContain('"SKIP_CHANGE_REQUEST"');
    expect((await featureEnvironment(server, 'g-flag', 'production', 'guarded')).enabled).toBe(false);
    expect((await toggle(editor, 'guarded', 'g-flag', 'development')).status).toBe(200);

    const strategies = '/api/admin/projects/guarded/features/g-flag/environments/production/strategies';
    const added = await server.request('POST', strategies, { token: editor.pat, body: { name: 'default' } });
    expect(added.status).toBe(403);
    const variants = await server.request(
      'PUT',
      '/api/admin/projects/guarded/features/g-flag/environments/production/variants',
      {
        token: editor.pat,
        body: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default' }],
      },
    );
    expect(variants.status).toBe(403);
    expect((await featureEnvironment(server, 'g-flag', 'production', 'guarded')).strategies).toEqual([]);
  });

  it('refuses what touches the flag in every environment: archiving it, giving it a parent', async () => {
    const archive = await server.request('DELETE', '/api/admin/projects/guarded/features/g-flag', {
      token: editor.pat,
    });
    expect(archive.status).toBe(403);
    const parent = await server.request('POST', '/api/admin/projects/guarded/features/g-flag/dependencies', {
      token: editor.pat,
      body: { feature: 'g-parent' },
    });
    expect(parent.status).toBe(403);
    expect((await asAdmin(server, 'GET', '/api/admin/projects/guarded/features/g-flag')).body.archived).toBe(
      false,
    );
  });

  it("refuses changing the project's own segments; segments of no project stay open", async () => {
    const made = async (project?: string) =>
      (
        await expectStatus(server, 201, 'POST', '/api/admin/segments', {
          name: `seg-${project}`,
          project,
          constraints: [],
        })
      ).body.id;
    const own = await made('guarded');
    const global = await made(undefined);
    const rename = (id: number) =>
      server.request('PUT', `/api/admin/segments/${id}`, {
        token: editor.pat,
        body: { name: `renamed-${id}`, constraints: [] },
      });
    expect((await rename(own)).status).toBe(403);
    expect((await rename(global)).status).toBe(204);
  });

  it('lets those with SKIP_CHANGE_REQUEST there, and Admins, change it directly', async () => {
    // Switching on a flag without strategies gives it the default one: that takes creating strategies.
    const skipper = await projectMember(server, 'guarded', [
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
      { name: 'CREATE_FEATURE_STRATEGY', environment: 'production' },
      { name: 'SKIP_CHANGE_REQUEST', environment: 'production' },
    ]);
    const bySkipper = await toggle(skipper, 'guarded', 'g-flag', 'production');
    expect(bySkipper.status, bySkipper.text).toBe(200);
    // Skipping in one environment is not skipping in another.
    const stagingSkipper = await projectMember(server, 'guarded', [
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
      { name: 'SKIP_CHANGE_REQUEST', environment: 'development' },
    ]);
    const elsewhere = await toggle(stagingSkipper, 'guarded', 'g-flag', 'production', false);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toContain('"SKIP_CHANGE_REQUEST"');
    const admin = await createUser(server, 1);
    expect((await toggle(admin, 'guarded', 'g-flag', 'production', false)).status).toBe(200);
    expect((await featureEnvironment(server, 'g-flag', 'production', 'guarded')).enabled).toBe(false);
  });

  it('refuses cloning a flag of the project and moving a flag into it, to everyone', async () => {
    const clone = await asAdmin(server, 'POST', '/api/admin/projects/guarded/features/g-flag/clone', {
      name: 'g-copy',
    });
    expect(clone.status).toBe(403);
    expect(clone.body.message).toBe('Cloning not allowed. Project guarded has change requests enabled.');
    await createFeature(server, 'outsider');
    const move = await asAdmin(
      server,
      'POST',
      '/api/admin/projects/default/features/outsider/changeProject',
      {
        newProjectId: 'guarded',
      },
    );
    expect(move.status).toBe(403);
    expect(move.body.message).toBe(
      'Changing project not allowed. Project guarded has change requests enabled.',
    );
    expect((await asAdmin(server, 'GET', '/api/admin/projects/default/features/outsider')).status).toBe(200);
  });

  it('refuses an import of flags into the environment without SKIP_CHANGE_REQUEST, and says so when validating', async () => {
    const body = (environment: string) => ({ project: 'guarded', environment, data: unleashExport() });
    const refused = await server.request('POST', '/api/admin/features-batch/import', {
      token: editor.pat,
      body: body('production'),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('"SKIP_CHANGE_REQUEST"');
    const lacking = async (environment: string) =>
      (
        await server.request('POST', '/api/admin/features-batch/validate', {
          token: editor.pat,
          body: body(environment),
        })
      ).body.permissions.flatMap((p: { affectedItems: string[] }) => p.affectedItems);
    expect(await lacking('production')).toContain('SKIP_CHANGE_REQUEST');
    expect(await lacking('development')).not.toContain('SKIP_CHANGE_REQUEST');
  });

  it('takes direct changes again once change requests are turned off', async () => {
    await expectStatus(server, 200, 'PUT', CONFIGURE('guarded', 'production'), {
      changeRequestsEnabled: false,
    });
    expect((await toggle(editor, 'guarded', 'g-flag', 'production')).status).toBe(200);
  });
});

// A role made only to hold the permission: the custom root role can carry it instance-wide.
describe('SKIP_CHANGE_REQUEST in a custom root role', () => {
  it('lets its holder change protected environments of every project', async () => {
    await createProject(server, 'rooted');
    await createFeature(server, 'r-flag', 'rooted');
    await expectStatus(server, 200, 'PUT', CONFIGURE('rooted', 'production'), {
      changeRequestsEnabled: true,
    });
    const role = await createRole(server, {
      name: 'Release manager',
      type: 'root-custom',
      permissions: [
        { name: 'UPDATE_FEATURE_ENVIRONMENT' },
        { name: 'CREATE_FEATURE_STRATEGY' },
        { name: 'SKIP_CHANGE_REQUEST' },
      ],
    });
    const manager = await createUser(server, role);
    expect((await toggle(manager, 'rooted', 'r-flag', 'production')).status).toBe(200);
  });
});
