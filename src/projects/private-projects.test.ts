import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, createRole, grant } from '../../test/access.js';
import { asAdmin, expectStatus } from '../../test/feature-ops.js';
import { CLIENT_TOKEN, startEnv } from '../../test/features.js';
import { bucket, eventually, postMetrics } from '../../test/metrics.js';
import {
  createFeature,
  createProject,
  createUser,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

// A project in the `private` mode is hidden, in every admin read, from a Viewer who holds no role
// in it; its members (directly or through a group), Admins, Editors, custom root roles and admin
// tokens see it, as in Unleash.

let server: TestServer;
let outsider: TestUser;
let member: TestUser;
let groupMember: TestUser;
let editor: TestUser;
let editorByGroup: TestUser;
let customRoot: TestUser;
let secretStrategy: string;
let secretSegment: number;
let sharedSegment: number;

const DEV = 'development';

beforeAll(async () => {
  server = await startTestServer(startEnv());
  [outsider, member, groupMember, editor, editorByGroup] = [
    await createUser(server, 3),
    await createUser(server, 3),
    await createUser(server, 3),
    await createUser(server, 2),
    await createUser(server, 3),
  ];
  const rootRole = await createRole(server, {
    name: 'segment-keeper',
    type: 'root-custom',
    permissions: [{ name: 'CREATE_SEGMENT' }],
  });
  customRoot = await createUser(server, rootRole);
  const team = await createGroup(server, { name: 'team', users: [{ user: { id: groupMember.id } }] });
  await createGroup(server, { name: 'editors', rootRole: 2, users: [{ user: { id: editorByGroup.id } }] });

  // Open at first: the outsider marks it and its flag favorite while it can.
  await createProject(server, 'secret');
  await createFeature(server, 'secret-flag', 'secret');
  await createFeature(server, 'secret-old', 'secret');
  await createFeature(server, 'open-flag');
  for (const user of [outsider, member]) {
    for (const path of [
      '/api/admin/projects/secret/favorites',
      '/api/admin/projects/secret/features/secret-flag/favorites',
    ]) {
      expect((await server.request('POST', path, { token: user.pat })).status).toBe(200);
    }
  }
  await expectStatus(server, 200, 'PUT', '/api/admin/projects/secret', { name: 'Secret', mode: 'private' });
  await grant(server, 'secret', { roles: [5], users: [member.id] });
  await grant(server, 'secret', { roles: [5], groups: [team.id] });

  await expectStatus(server, 201, 'POST', '/api/admin/context', { name: 'secretField', project: 'secret' });
  secretSegment = (
    await expectStatus(server, 201, 'POST', '/api/admin/segments', {
      name: 'secret-segment',
      project: 'secret',
      constraints: [],
    })
  ).body.id;
  sharedSegment = (
    await expectStatus(server, 201, 'POST', '/api/admin/segments', { name: 'shared', constraints: [] })
  ).body.id;
  const strategy = (segments: number[]) => ({
    name: 'default',
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['ada'] }],
    segments,
  });
  secretStrategy = (
    await expectStatus(
      server,
      200,
      'POST',
      `/api/admin/projects/secret/features/secret-flag/environments/${DEV}/strategies`,
      strategy([secretSegment, sharedSegment]),
    )
  ).body.id;
  await expectStatus(
    server,
    200,
    'POST',
    `/api/admin/projects/default/features/open-flag/environments/${DEV}/strategies`,
    strategy([sharedSegment]),
  );
  await expectStatus(server, 201, 'POST', '/api/admin/features/secret-flag/tags', { value: 'classified' });
  await expectStatus(server, 202, 'POST', '/api/admin/projects/secret/archive', { features: ['secret-old'] });

  const report = { appName: 'shop', instanceId: 's1', bucket: bucket({ 'secret-flag': { yes: 1, no: 0 } }) };
  expect((await postMetrics(server, CLIENT_TOKEN, report)).status).toBe(202);
  await eventually(
    () => asAdmin(server, 'GET', '/api/admin/client-metrics/features/secret-flag'),
    (res) => res.body.seenApplications?.length === 1,
  );
});
afterAll(() => server.close());

type Read = (token: string) => Promise<boolean>;

const get = (token: string, url: string) => server.request('GET', url, { token });
const post = (token: string, url: string, body: unknown) => server.request('POST', url, { token, body });
/** A path, or one made when the reads run (with ids the set-up gave). */
type Path = string | (() => string);
const pathOf = (path: Path) => (typeof path === 'string' ? path : path());
const found = (path: Path) => async (token: string) => (await get(token, pathOf(path))).status === 200;
const mentions =
  (path: Path, text = 'secret') =>
  async (token: string) => {
    const res = await get(token, pathOf(path));
    expect(res.status, `${pathOf(path)}: ${res.text}`).toBe(200);
    return res.text.includes(text);
  };
const exported = (body: object) => async (token: string) => {
  const res = await post(token, '/api/admin/features-batch/export', { environment: DEV, ...body });
  return res.status === 200 && res.body.features.some((f: { project: string }) => f.project === 'secret');
};
const played = (path: string, body: object) => async (token: string) => {
  const res = await post(token, `/api/admin/playground${path}`, { context: { appName: 'a' }, ...body });
  expect(res.status, res.text).toBe(200);
  return res.body.features.some((f: { projectId: string }) => f.projectId === 'secret');
};
const stageTotal = async (token: string) => {
  const res = await get(token, '/api/admin/lifecycle/count');
  return Object.values<number>(res.body).reduce((a, b) => a + b, 0);
};

/** Each admin read, and whether it shows the caller anything of the private project. */
const READS: Record<string, Read> = {
  'the project list': mentions('/api/admin/projects'),
  'the project': found('/api/admin/projects/secret'),
  'its environments': found('/api/admin/environments/project/secret'),
  'its flag list': found('/api/admin/projects/secret/features'),
  'a flag': found('/api/admin/projects/secret/features/secret-flag'),
  'a flag in one environment': found(`/api/admin/projects/secret/features/secret-flag/environments/${DEV}`),
  'a flag’s strategies': found(
    `/api/admin/projects/secret/features/secret-flag/environments/${DEV}/strategies`,
  ),
  'a flag’s lifecycle': found('/api/admin/projects/secret/features/secret-flag/lifecycle'),
  'a flag’s possible parents': found('/api/admin/projects/secret/features/secret-flag/parents'),
  'its dependencies': found('/api/admin/projects/secret/dependencies'),
  'a flag’s tags': found('/api/admin/features/secret-flag/tags'),
  'a flag’s usage': found('/api/admin/client-metrics/features/secret-flag'),
  'a flag’s raw usage': found('/api/admin/client-metrics/features/secret-flag/raw'),
  'its overview': found('/api/admin/projects/secret/overview'),
  'its insights': found('/api/admin/projects/secret/insights'),
  'its health report': found('/api/admin/projects/secret/health-report'),
  'its status': found('/api/admin/projects/secret/status'),
  'its lead times': found('/api/admin/projects/secret/dora'),
  'its flag creators': found('/api/admin/projects/secret/flag-creators'),
  'its applications': found('/api/admin/projects/secret/applications'),
  'its context fields': found('/api/admin/projects/secret/context'),
  'its archive': found('/api/admin/archive/features/secret'),
  'the archive': mentions('/api/admin/archive/features'),
  'feature search': mentions('/api/admin/search/features?limit=1000'),
  'feature search in the archive': mentions('/api/admin/search/features?archived=IS:true'),
  'the event list': mentions('/api/admin/events?limit=1000'),
  'a flag’s events': mentions('/api/admin/events/secret-flag', '"project":"secret"'),
  'event search': mentions('/api/admin/search/events?limit=1000'),
  'event search by flag': mentions('/api/admin/search/events?feature=IS:secret-flag', '"project":"secret"'),
  'export of every flag': exported({ features: [] }),
  'export by name': exported({ features: ['secret-flag'] }),
  'export by tag': exported({ tag: 'classified' }),
  'export of the project': exported({ project: 'secret' }),
  'import validation': async (token) =>
    (
      await post(token, '/api/admin/features-batch/validate', {
        project: 'secret',
        environment: DEV,
        data: { features: [], featureStrategies: [], tagTypes: [] },
      })
    ).status === 200,
  'the playground': played('', { environment: DEV, projects: '*' }),
  'the playground, the project named': played('', { environment: DEV, projects: ['secret'] }),
  'the advanced playground': played('/advanced', { environments: [DEV], projects: '*' }),
  segments: mentions('/api/admin/segments'),
  'a segment': found(() => `/api/admin/segments/${secretSegment}`),
  'a shared segment’s strategies': mentions(() => `/api/admin/segments/${sharedSegment}/strategies`),
  'a strategy’s segments': async (token) =>
    (await get(token, `/api/admin/segments/strategies/${secretStrategy}`)).body.segments.length > 0,
  'context fields': mentions('/api/admin/context?include=project', 'secretField'),
  'a context field': found('/api/admin/context/secretField'),
  'a context field’s strategies': mentions('/api/admin/context/userId/strategies'),
  'lifecycle counts': async (token) => (await stageTotal(token)) === (await stageTotal(server.adminToken)),
  'an application': mentions('/api/admin/metrics/applications/shop', 'secret-flag'),
  'an application overview': mentions('/api/admin/metrics/applications/shop/overview'),
};

async function whatShows(token: string): Promise<Record<string, boolean>> {
  const shown: Record<string, boolean> = {};
  for (const [name, read] of Object.entries(READS)) shown[name] = await read(token);
  return shown;
}

const every = (value: boolean) => Object.fromEntries(Object.keys(READS).map((name) => [name, value]));

describe('a private project', () => {
  it('shows nothing of itself or its flags to a Viewer who holds no role in it', async () => {
    expect(await whatShows(outsider.pat)).toEqual(every(false));
  });

  it('shows everything to its members, directly or through a group', async () => {
    expect(await whatShows(member.pat)).toEqual(every(true));
    expect(await whatShows(groupMember.pat)).toEqual(every(true));
  });

  it('shows everything to Admins, admin tokens, Editors (directly or by a group) and custom root roles', async () => {
    for (const token of [server.adminToken, editor.pat, editorByGroup.pat, customRoot.pat]) {
      expect(await whatShows(token)).toEqual(every(true));
    }
  });

  it('is answered to an outsider as a project that does not exist, and a flag of it as an unknown flag', async () => {
    const hidden = await get(outsider.pat, '/api/admin/projects/secret');
    const absent = await get(outsider.pat, '/api/admin/projects/nowhere');
    expect(hidden.status).toBe(404);
    expect({ ...hidden.body, id: 0 }).toEqual({
      ...absent.body,
      id: 0,
      message: absent.body.message.replace('nowhere', 'secret'),
    });
    const tags = await get(outsider.pat, '/api/admin/features/secret-flag/tags');
    expect(tags.status).toBe(404);
    expect(tags.body.message).toBe('There is no feature named "secret-flag", archived or not.');
    // Named under an open project, it is not there; the message does not say where it is.
    const elsewhere = await get(outsider.pat, '/api/admin/projects/default/features/secret-flag');
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).not.toContain('"secret"');
  });

  it('refuses an outsider’s change with 403 first, as for a project that does not exist', async () => {
    for (const project of ['secret', 'nowhere']) {
      const res = await post(outsider.pat, `/api/admin/projects/${project}/features`, {
        name: `x-${project}`,
      });
      expect(res.status).toBe(403);
    }
    const favorite = await post(outsider.pat, '/api/admin/projects/secret/favorites', undefined);
    expect(favorite.status).toBe(404);
  });

  it('names no private project in an import’s findings', async () => {
    const res = await post(outsider.pat, '/api/admin/features-batch/validate', {
      project: 'default',
      environment: DEV,
      data: { features: [{ name: 'secret-flag' }], featureStrategies: [], tagTypes: [] },
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('secret-flag');
    expect(res.text).not.toContain('in project secret');
  });

  it('leaves the personal dashboard of an outsider who marked it favorite before it became private', async () => {
    const mine = await get(outsider.pat, '/api/admin/personal-dashboard');
    expect(mine.status).toBe(200);
    expect(mine.text).not.toContain('secret');
    expect((await get(outsider.pat, '/api/admin/personal-dashboard/secret')).status).toBe(404);
    const theirs = await get(member.pat, '/api/admin/personal-dashboard');
    expect(theirs.body.projects.map((p: { id: string }) => p.id)).toContain('secret');
    expect(theirs.body.flags.map((f: { name: string }) => f.name)).toContain('secret-flag');
    expect((await get(member.pat, '/api/admin/personal-dashboard/secret')).status).toBe(200);
  });

  it('counts its flags in the Prometheus scrape without naming it', async () => {
    const res = await server.request('GET', '/internal-backstage/prometheus');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('project="secret"');
    expect(res.text).toContain('flagpole_features{project="(private)",state="active"} 1');
    expect(res.text).toContain('flagpole_features{project="(private)",state="archived"} 1');
    expect(res.text).toContain('flagpole_features{project="default",state="active"} 1');
  });

  it('is seen again by an outsider once granted a role in it, and hidden once the grant goes', async () => {
    await grant(server, 'secret', { roles: [5], users: [outsider.id] });
    expect((await get(outsider.pat, '/api/admin/projects/secret')).status).toBe(200);
    await expectStatus(server, 200, 'DELETE', `/api/admin/projects/secret/users/${outsider.id}/roles`);
    expect((await get(outsider.pat, '/api/admin/projects/secret')).status).toBe(404);
  });

  it('is seen by everyone once it is open again', async () => {
    await expectStatus(server, 200, 'PUT', '/api/admin/projects/secret', {
      name: 'Secret',
      mode: 'protected',
    });
    expect(await whatShows(outsider.pat)).toEqual(every(true));
    await expectStatus(server, 200, 'PUT', '/api/admin/projects/secret', { name: 'Secret', mode: 'private' });
    expect((await get(outsider.pat, '/api/admin/projects/secret')).status).toBe(404);
  });

  it('keeps the modes Unleash has', async () => {
    const res = await asAdmin(server, 'PUT', '/api/admin/projects/secret', {
      name: 'Secret',
      mode: 'hidden',
    });
    expect(res.status).toBe(400);
  });
});
