import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asAdmin,
  eventsAbout,
  expectStatus,
  PRODUCTION_CLIENT_TOKEN,
  projectMember,
} from '../../../test/feature-ops.js';
import {
  type Callers,
  CLIENT_TOKEN,
  createFeature,
  createProject,
  expectRefused,
  makeCallers,
  setEnabled,
} from '../../../test/features.js';
import { bucket, eventually, postMetrics } from '../../../test/metrics.js';
import { startTestServer, type TestServer } from '../../../test/server.js';

let server: TestServer;
let callers: Callers;
beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: `${CLIENT_TOKEN},${PRODUCTION_CLIENT_TOKEN}` });
  callers = await makeCallers(server);
  await createProject(server, 'other');
});
afterAll(() => server.close());

const lifecycle = (name: string, project = 'default') =>
  asAdmin(server, 'GET', `/api/admin/projects/${project}/features/${name}/lifecycle`);
const stages = async (name: string) =>
  ((await lifecycle(name)).body as { stage: string }[]).map((s) => s.stage);
const count = async () => (await asAdmin(server, 'GET', '/api/admin/lifecycle/count')).body;
const seen = (token: string, name: string) =>
  postMetrics(server, token, {
    appName: 'app',
    instanceId: 'i',
    bucket: bucket({ [name]: { yes: 1, no: 0 } }),
  });

describe('lifecycle stages', () => {
  it('starts initial when created, as the lifecycle, the feature and the count show', async () => {
    const before = await count();
    await createFeature(server, 'lc-new');
    const res = await lifecycle('lc-new');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ stage: 'initial', enteredStageAt: expect.any(String) }]);
    const feature = await asAdmin(server, 'GET', '/api/admin/projects/default/features/lc-new');
    expect(feature.body.lifecycle).toEqual(res.body[0]);
    expect(await count()).toEqual({ ...before, initial: before.initial + 1 });
  });

  it('goes pre-live when SDKs report it, and live when reported from production while on there', async () => {
    await createFeature(server, 'lc-seen');
    expect((await seen(CLIENT_TOKEN, 'lc-seen')).status).toBe(202);
    expect(
      await eventually(
        () => stages('lc-seen'),
        (s) => s.length === 2,
      ),
    ).toEqual(['initial', 'pre-live']);
    // Reported from production while off there: still pre-live.
    await seen(PRODUCTION_CLIENT_TOKEN, 'lc-seen');
    await eventually(
      async () => (await asAdmin(server, 'GET', '/api/admin/projects/default/features/lc-seen')).body,
      (f) => f.environments.find((e: { name: string }) => e.name === 'production').lastSeenAt !== null,
    );
    expect(await stages('lc-seen')).toEqual(['initial', 'pre-live']);
    await setEnabled(server, 'lc-seen', 'production', true);
    await seen(PRODUCTION_CLIENT_TOKEN, 'lc-seen');
    expect(
      await eventually(
        () => stages('lc-seen'),
        (s) => s.length === 3,
      ),
    ).toEqual(['initial', 'pre-live', 'live']);
    const feature = await eventually(
      async () => (await asAdmin(server, 'GET', '/api/admin/projects/default/features/lc-seen')).body,
      (f) => f.lifecycle.stage === 'live',
    );
    expect(feature.lifecycle.stage).toBe('live');
  });

  it('is archived when archived, and starts over as initial when revived', async () => {
    await createFeature(server, 'lc-archive');
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/lc-archive');
    expect(await stages('lc-archive')).toEqual(['initial', 'archived']);
    await expectStatus(server, 200, 'POST', '/api/admin/projects/default/revive', {
      features: ['lc-archive'],
    });
    expect(await stages('lc-archive')).toEqual(['initial']);
  });
});

describe('POST …/lifecycle/complete and /uncomplete', () => {
  const url = (name: string, action: string) =>
    `/api/admin/projects/default/features/${name}/lifecycle/${action}`;

  it('completes with a status, shown as the current stage; the same again records nothing', async () => {
    await createFeature(server, 'lc-done');
    const res = await expectStatus(server, 200, 'POST', url('lc-done', 'complete'), {
      status: 'kept',
      statusValue: 'variant-b',
    });
    expect(res.text).toBe('');
    const read = (await lifecycle('lc-done')).body;
    expect(read.map((s: { stage: string }) => s.stage)).toEqual(['initial', 'completed']);
    expect(read[1]).toEqual({ stage: 'completed', status: 'kept', enteredStageAt: expect.any(String) });
    const [event] = await eventsAbout(server, 'lc-done', 'feature-completed');
    expect(event).toMatchObject({
      project: 'default',
      data: { status: 'kept', statusValue: 'variant-b', kept: true },
      preData: null,
    });
    await expectStatus(server, 200, 'POST', url('lc-done', 'complete'), {
      status: 'kept',
      statusValue: 'variant-b',
    });
    expect(await eventsAbout(server, 'lc-done', 'feature-completed')).toHaveLength(1);
    await expectStatus(server, 200, 'POST', url('lc-done', 'complete'), { status: 'discarded' });
    const events = await eventsAbout(server, 'lc-done', 'feature-completed');
    expect(events[0]).toMatchObject({
      data: { status: 'discarded', kept: false },
      preData: { status: 'kept' },
    });
  });

  it('uncompletes: the stage goes, with one event; uncompleting again changes nothing', async () => {
    await createFeature(server, 'lc-undone');
    await expectStatus(server, 200, 'POST', url('lc-undone', 'complete'), { status: 'discarded' });
    await expectStatus(server, 200, 'POST', url('lc-undone', 'uncomplete'));
    expect(await stages('lc-undone')).toEqual(['initial']);
    await expectStatus(server, 200, 'POST', url('lc-undone', 'uncomplete'));
    const events = await eventsAbout(server, 'lc-undone', 'feature-uncompleted');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ project: 'default', preData: { status: 'discarded' } });
  });

  it('refuses bad bodies (400), unknown, archived and misplaced features (404), callers without permission', async () => {
    await createFeature(server, 'lc-refused');
    const read = () => lifecycle('lc-refused').then((r) => r.body);
    for (const body of [
      {},
      { status: 'gone' },
      { status: 'kept', extra: 1 },
      { status: 'kept', statusValue: 5 },
    ]) {
      await expectRefused(
        server,
        400,
        () => asAdmin(server, 'POST', url('lc-refused', 'complete'), body),
        read,
      );
    }
    await expectRefused(
      server,
      404,
      () =>
        asAdmin(server, 'POST', '/api/admin/projects/other/features/lc-refused/lifecycle/complete', {
          status: 'kept',
        }),
      read,
    );
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'POST', url('lc-ghost', 'complete'), { status: 'kept' }),
      read,
    );
    await expectRefused(
      server,
      415,
      () =>
        server.request('POST', url('lc-refused', 'complete'), {
          token: server.adminToken,
          body: '{"status":"kept"}',
          contentType: 'text/plain',
        }),
      read,
    );
    const member = await projectMember(server, 'default', ['CREATE_FEATURE']);
    for (const token of [callers.viewer.pat, member.pat, CLIENT_TOKEN]) {
      await expectRefused(
        server,
        403,
        () => server.request('POST', url('lc-refused', 'complete'), { token, body: { status: 'kept' } }),
        read,
      );
      await expectRefused(
        server,
        403,
        () => server.request('POST', url('lc-refused', 'uncomplete'), { token }),
        read,
      );
    }
    await expectRefused(server, 401, () => server.request('POST', url('lc-refused', 'uncomplete')), read);
  });
});

describe('GET …/lifecycle and /api/admin/lifecycle/count', () => {
  it('reads for any user, archived features too; 404 for unknown or misplaced features; 401/403', async () => {
    await createFeature(server, 'lc-read');
    const viewer = await server.request('GET', '/api/admin/projects/default/features/lc-read/lifecycle', {
      token: callers.viewer.pat,
    });
    expect(viewer.status).toBe(200);
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/lc-read');
    expect(await stages('lc-read')).toEqual(['initial', 'archived']);
    expect((await lifecycle('lc-read', 'other')).status).toBe(404);
    expect((await lifecycle('lc-none')).status).toBe(404);
    expect((await server.request('GET', '/api/admin/lifecycle/count')).status).toBe(401);
    const client = await server.request('GET', '/api/admin/lifecycle/count', { token: CLIENT_TOKEN });
    expect(client.status).toBe(403);
  });

  it('counts each feature once, at the stage it stands at', async () => {
    const before = await count();
    await createFeature(server, 'lc-count', 'other');
    await expectStatus(
      server,
      200,
      'POST',
      '/api/admin/projects/other/features/lc-count/lifecycle/complete',
      {
        status: 'kept',
      },
    );
    expect(await count()).toEqual({ ...before, completed: before.completed + 1 });
    await expectStatus(server, 202, 'POST', '/api/admin/projects/other/archive', { features: ['lc-count'] });
    expect(await count()).toEqual({ ...before, archived: before.archived + 1 });
  });
});
