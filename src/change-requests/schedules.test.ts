import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsAbout, featureEnvironment, projectMember } from '../../test/feature-ops.js';
import { asAdmin, expectStatus } from '../../test/requests.js';
import {
  createFeature,
  createProject,
  isPostgres,
  lastEvent,
  type Replica,
  startReplica,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let author: TestUser;
let reviewer: TestUser;

const PROJECT = 'timed';
const BASE = `/api/admin/projects/${PROJECT}/change-requests`;
const DRAFT = `/api/admin/projects/${PROJECT}/environments/production/change-requests`;

const as = (user: TestUser, method: string, url: string, body?: unknown) =>
  server.request(method, url, { token: user.pat, body });
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** An approved request of the author's with these changes (one approval is needed here). */
async function approved(changes: unknown): Promise<number> {
  const draft = await as(author, 'POST', DRAFT, changes);
  expect(draft.status, draft.text).toBe(200);
  const id = draft.body.id;
  expect((await as(author, 'PUT', `${BASE}/${id}/state`, { state: 'In review' })).status).toBe(200);
  expect((await as(reviewer, 'PUT', `${BASE}/${id}/state`, { state: 'Approved' })).body.state).toBe(
    'Approved',
  );
  return id;
}

async function schedule(id: number, at: string) {
  const res = await as(reviewer, 'PUT', `${BASE}/${id}/state`, { state: 'Scheduled', scheduledAt: at });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The request once `done` holds of it, read every 100 ms for up to 8 s. */
async function until(id: number, done: (request: any) => boolean) {
  const deadline = Date.now() + 8000;
  for (;;) {
    const request = (await as(reviewer, 'GET', `${BASE}/${id}`)).body;
    if (done(request) || Date.now() > deadline) return request;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const enableSearch = { feature: 'search', action: 'updateEnabled', payload: { enabled: true } };

beforeAll(async () => {
  server = await startTestServer();
  await createProject(server, PROJECT);
  for (const flag of ['search', 'basket', 'wishlist', 'replicated'])
    await createFeature(server, flag, PROJECT);
  await expectStatus(server, 200, 'PUT', `${DRAFT}/config`, {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  author = await projectMember(server, PROJECT, [
    'UPDATE_FEATURE_ENVIRONMENT',
    'CREATE_FEATURE_STRATEGY',
    'UPDATE_FEATURE_STRATEGY',
  ]);
  reviewer = await projectMember(server, PROJECT, [
    { name: 'APPROVE_CHANGE_REQUEST', environment: 'production' },
    { name: 'APPLY_CHANGE_REQUEST', environment: 'production' },
  ]);
});
afterAll(() => server.close());

describe('a scheduled change request', () => {
  it('is applied at its time, once, by the job runner', async () => {
    const id = await approved(enableSearch);
    const at = inSeconds(1.5);
    const scheduled = await schedule(id, at);
    expect(scheduled).toMatchObject({ state: 'Scheduled', schedule: { status: 'pending', scheduledAt: at } });
    expect(await lastEvent(server, 'change-request-scheduled')).toMatchObject({
      data: { changeRequestId: id, scheduledDate: at },
    });
    expect((await as(author, 'GET', `${BASE}/scheduled?feature=search`)).body).toEqual([
      { id, environment: 'production' },
    ]);
    expect((await as(author, 'GET', `${BASE}/scheduled`)).body).toEqual([]);
    expect((await as(author, 'GET', `${BASE}/count`)).body.scheduled).toBe(1);
    // Scheduled requests are not edited.
    const change = scheduled.features[0].changes[0];
    expect((await as(author, 'DELETE', `${BASE}/${id}/changes/${change.id}`)).status).toBe(400);

    const applied = await until(id, (r) => r.state === 'Applied');
    expect(applied.state).toBe('Applied');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));
    expect((await featureEnvironment(server, 'search', 'production', PROJECT)).enabled).toBe(true);
    expect(await lastEvent(server, 'change-request-scheduled-application-success')).toMatchObject({
      createdByUserId: reviewer.id,
      data: { changeRequestId: id },
    });
    const jobs = (await asAdmin(server, 'GET', '/api/admin/jobs')).body.jobs;
    expect(jobs.find((j: any) => j.key === String(id))).toMatchObject({
      kind: 'change-request',
      state: 'done',
      attempts: 1,
    });
  });

  it('refuses a time past, a request not approved, and one who may not apply', async () => {
    const id = await approved({ feature: 'basket', action: 'updateEnabled', payload: { enabled: true } });
    const past = await as(reviewer, 'PUT', `${BASE}/${id}/state`, {
      state: 'Scheduled',
      scheduledAt: inSeconds(-60),
    });
    expect(past.status).toBe(400);
    expect((await as(reviewer, 'PUT', `${BASE}/${id}/state`, { state: 'Scheduled' })).status).toBe(400);
    const byAuthor = await as(author, 'PUT', `${BASE}/${id}/state`, {
      state: 'Scheduled',
      scheduledAt: inSeconds(60),
    });
    expect(byAuthor.status).toBe(403);
    const draft = await as(author, 'POST', DRAFT, {
      feature: 'wishlist',
      action: 'updateEnabled',
      payload: { enabled: true },
    });
    const notApproved = await as(reviewer, 'PUT', `${BASE}/${draft.body.id}/state`, {
      state: 'Scheduled',
      scheduledAt: inSeconds(60),
    });
    expect(notApproved.status).toBe(404); // another's draft is not seen at all
    expect((await as(author, 'DELETE', `${BASE}/${draft.body.id}`)).status).toBe(200);

    // Rescheduled, then applied now: the job is dropped.
    await schedule(id, inSeconds(60));
    const later = inSeconds(120);
    expect((await schedule(id, later)).schedule).toEqual({ status: 'pending', scheduledAt: later });
    expect((await as(reviewer, 'PUT', `${BASE}/${id}/state`, { state: 'Applied' })).body.state).toBe(
      'Applied',
    );
    const jobs = (await asAdmin(server, 'GET', '/api/admin/jobs')).body.jobs;
    expect(jobs.filter((j: any) => j.key === String(id)).map((j: any) => j.state)).toEqual(['cancelled']);
  });

  it('is suspended when what it changes changes first, and can still be rejected', async () => {
    const strategy = await expectStatus(
      server,
      200,
      'POST',
      `/api/admin/projects/${PROJECT}/features/wishlist/environments/production/strategies`,
      { name: 'default' },
    );
    const id = await approved({
      feature: 'wishlist',
      action: 'updateStrategy',
      payload: {
        id: strategy.body.id,
        name: 'default',
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['7'] }],
      },
    });
    await schedule(id, inSeconds(600));
    await expectStatus(
      server,
      200,
      'PUT',
      `/api/admin/projects/${PROJECT}/features/wishlist/environments/production/strategies/${strategy.body.id}`,
      { name: 'default', title: 'changed directly' },
    );
    const suspended = await until(id, (r) => r.schedule?.status === 'suspended');
    expect(suspended).toMatchObject({ state: 'Scheduled', schedule: { status: 'suspended' } });
    expect(suspended.schedule.reason).toContain('has changed since');
    expect(await lastEvent(server, 'change-request-schedule-suspended')).toMatchObject({
      data: { changeRequestId: id },
    });
    const rejected = await as(author, 'PUT', `${BASE}/${id}/state`, { state: 'Rejected' });
    expect(rejected.body.state).toBe('Rejected');
  });

  it('is suspended when the user who scheduled it is deleted', async () => {
    const scheduler = await projectMember(server, PROJECT, [
      { name: 'APPLY_CHANGE_REQUEST', environment: 'production' },
    ]);
    const id = await approved({ feature: 'wishlist', action: 'updateEnabled', payload: { enabled: true } });
    const res = await as(scheduler, 'PUT', `${BASE}/${id}/state`, {
      state: 'Scheduled',
      scheduledAt: inSeconds(1),
    });
    expect(res.status, res.text).toBe(200);
    await expectStatus(server, 200, 'DELETE', `/api/admin/user-admin/${scheduler.id}`);
    const suspended = await until(id, (r) => r.schedule?.status === 'suspended');
    expect(suspended.schedule).toMatchObject({
      status: 'suspended',
      reason: 'The user who scheduled it has been deleted.',
    });
    expect((await featureEnvironment(server, 'wishlist', 'production', PROJECT)).enabled).toBe(false);
  });

  it('stays scheduled, failed with the reason, when applying it fails', async () => {
    const id = await approved([
      { feature: 'basket', action: 'updateEnabled', payload: { enabled: false } },
      { feature: 'basket', action: 'addStrategy', payload: { name: 'default', segments: [999999] } },
    ]);
    await schedule(id, inSeconds(1));
    const failed = await until(id, (r) => r.schedule?.status === 'failed');
    expect(failed).toMatchObject({ state: 'Scheduled', schedule: { status: 'failed' } });
    expect(failed.schedule.reason).toContain('999999');
    expect(failed.schedule.failureReason).toBe(failed.schedule.reason);
    expect((await featureEnvironment(server, 'basket', 'production', PROJECT)).enabled).toBe(true);
    expect(await lastEvent(server, 'change-request-scheduled-application-failure')).toMatchObject({
      data: { changeRequestId: id },
    });
    const job = (await asAdmin(server, 'GET', '/api/admin/jobs')).body.jobs.find(
      (j: any) => j.key === String(id),
    );
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    expect(job.lastError).toContain('999999');
  });
});

describe.runIf(isPostgres())('a scheduled change request with three processes running', () => {
  let replicas: Replica[] = [];
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
  });

  it('is applied exactly once, by one of them', async () => {
    replicas = [await startReplica(server), await startReplica(server)];
    const id = await approved({ feature: 'replicated', action: 'updateEnabled', payload: { enabled: true } });
    await schedule(id, inSeconds(1.2));
    const applied = await until(id, (r) => r.state === 'Applied');
    expect(applied.state).toBe('Applied');
    // Every process polls; give the others a turn at it too.
    await new Promise((r) => setTimeout(r, 1500));
    const events = (await asAdmin(server, 'GET', '/api/admin/events?type=change-request-applied')).body
      .events;
    expect(events.filter((e: any) => e.data.changeRequestId === id)).toHaveLength(1);
    expect(await eventsAbout(server, 'replicated', 'feature-environment-enabled')).toHaveLength(1);
  });
});
