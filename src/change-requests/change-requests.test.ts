import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let server: TestServer;
let author: TestUser;
let reviewer: TestUser;
let secondReviewer: TestUser;
let onlooker: TestUser;

const PROJECT = 'crs';
const BASE = `/api/admin/projects/${PROJECT}/change-requests`;
const DRAFT = `/api/admin/projects/${PROJECT}/environments/production/change-requests`;
const FLAG_EDITING = [
  'UPDATE_FEATURE_ENVIRONMENT',
  'CREATE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  'UPDATE_FEATURE_DEPENDENCY',
  'DELETE_FEATURE',
];
const REVIEWING = [
  { name: 'APPROVE_CHANGE_REQUEST', environment: 'production' },
  { name: 'APPLY_CHANGE_REQUEST', environment: 'production' },
];

const as = (user: TestUser, method: string, url: string, body?: unknown) =>
  server.request(method, url, { token: user.pat, body });
const setState = (user: TestUser, id: number, state: string, comment?: string) =>
  as(user, 'PUT', `${BASE}/${id}/state`, { state, ...(comment ? { comment } : {}) });

async function strategiesOf(feature: string) {
  return (await featureEnvironment(server, feature, 'production', PROJECT)).strategies;
}

/** A request of the author's, sent to review with these changes. */
async function inReview(changes: unknown): Promise<number> {
  const draft = await as(author, 'POST', DRAFT, changes);
  expect(draft.status, draft.text).toBe(200);
  expect((await setState(author, draft.body.id, 'In review')).status).toBe(200);
  return draft.body.id;
}

async function approvedByBoth(changes: unknown): Promise<number> {
  const id = await inReview(changes);
  expect((await setState(reviewer, id, 'Approved')).status).toBe(200);
  const second = await setState(secondReviewer, id, 'Approved');
  expect(second.status, second.text).toBe(200);
  expect(second.body.state).toBe('Approved');
  return id;
}

beforeAll(async () => {
  server = await startTestServer();
  await createProject(server, PROJECT);
  await createFeature(server, 'checkout', PROJECT);
  await createFeature(server, 'search', PROJECT);
  await expectStatus(
    server,
    200,
    'POST',
    `/api/admin/projects/${PROJECT}/features/checkout/environments/production/strategies`,
    {
      name: 'flexibleRollout',
      parameters: { rollout: '10', stickiness: 'default', groupId: 'checkout' },
    },
  );
  await expectStatus(
    server,
    200,
    'PUT',
    `/api/admin/projects/${PROJECT}/environments/production/change-requests/config`,
    { changeRequestsEnabled: true, requiredApprovals: 2 },
  );
  author = await projectMember(server, PROJECT, FLAG_EDITING);
  reviewer = await projectMember(server, PROJECT, REVIEWING);
  secondReviewer = await projectMember(server, PROJECT, REVIEWING);
  onlooker = await createUser(server, 3);
});
afterAll(() => server.close());

describe('a change request from draft to applied', () => {
  let id: number;

  it('refuses the direct change, and collects it in the author’s draft instead', async () => {
    const direct = await as(
      author,
      'POST',
      `/api/admin/projects/${PROJECT}/features/checkout/environments/production/on`,
    );
    expect(direct.status).toBe(403);
    expect(direct.text).toContain('SKIP_CHANGE_REQUEST');

    const first = await as(author, 'POST', DRAFT, {
      feature: 'checkout',
      action: 'updateEnabled',
      payload: { enabled: false },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      project: PROJECT,
      environment: 'production',
      state: 'Draft',
      minApprovals: 2,
    });
    id = first.body.id;
    // A list of changes in one call; the second on/off of the flag takes the first one's place.
    const more = await as(author, 'POST', DRAFT, [
      { feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } },
      { feature: 'checkout', action: 'addStrategy', payload: { name: 'default', constraints: [] } },
    ]);
    expect(more.status, more.text).toBe(200);
    expect(more.body.id).toBe(id);
    expect(more.body.features).toHaveLength(1);
    expect(more.body.features[0].changes.map((c: any) => [c.action, c.payload])).toEqual([
      ['updateEnabled', { enabled: true }],
      ['addStrategy', { name: 'default', constraints: [] }],
    ]);
    expect(more.body.createdBy).toMatchObject({ id: expect.any(Number), username: expect.any(String) });
    expect(await lastEvent(server, 'change-request-created')).toMatchObject({
      project: PROJECT,
      environment: 'production',
      data: { changeRequestId: id },
    });
    expect(await lastEvent(server, 'change-added')).toMatchObject({
      featureName: 'checkout',
      data: { changeRequestId: id },
    });
  });

  it('keeps a draft to its author', async () => {
    expect((await as(reviewer, 'GET', `${BASE}/${id}`)).status).toBe(404);
    expect((await as(reviewer, 'GET', BASE)).body.map((r: any) => r.id)).not.toContain(id);
    expect((await as(author, 'GET', BASE)).body.map((r: any) => r.id)).toContain(id);
    expect((await as(author, 'GET', `${BASE}/pending`)).body.map((r: any) => r.id)).toEqual([id]);
    expect((await as(reviewer, 'PUT', `${BASE}/${id}/state`, { state: 'In review' })).status).toBe(404);
  });

  it('is sent to review by its author, and needs two approvals from others', async () => {
    const sent = await setState(author, id, 'In review', 'Please turn it on');
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.state).toBe('In review');
    expect(sent.body.comments.map((c: any) => c.text)).toEqual(['Please turn it on']);
    expect(sent.body.stateTimestamps).toHaveProperty('In review');

    const own = await setState(author, id, 'Approved');
    expect(own.status).toBe(403);
    expect(own.body.name).toBe('NoAccessError');
    const byOnlooker = await setState(onlooker, id, 'Approved');
    expect(byOnlooker.status).toBe(403);
    expect(byOnlooker.text).toContain('APPROVE_CHANGE_REQUEST');

    const one = await setState(reviewer, id, 'Approved');
    expect(one.status, one.text).toBe(200);
    expect(one.body.state).toBe('In review');
    expect(one.body.approvals).toHaveLength(1);
    expect((await setState(reviewer, id, 'Approved')).status).toBe(400);
    expect((await as(secondReviewer, 'GET', `${BASE}/actionable`)).body).toEqual({ total: 1 });
    expect((await as(reviewer, 'GET', `${BASE}/actionable`)).body).toEqual({ total: 0 });

    const two = await setState(secondReviewer, id, 'Approved');
    expect(two.body.state).toBe('Approved');
    expect(await lastEvent(server, 'change-request-approved')).toMatchObject({
      data: { changeRequestId: id },
    });
  });

  it('is applied by one who may apply, all its changes at once', async () => {
    const byAuthor = await setState(author, id, 'Applied');
    expect(byAuthor.status).toBe(403);
    expect(byAuthor.text).toContain('APPLY_CHANGE_REQUEST');
    expect((await featureEnvironment(server, 'checkout', 'production', PROJECT)).enabled).toBe(false);

    const applied = await setState(reviewer, id, 'Applied');
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.state).toBe('Applied');
    const environment = await featureEnvironment(server, 'checkout', 'production', PROJECT);
    expect(environment.enabled).toBe(true);
    expect(environment.strategies.map((s: any) => s.name)).toEqual(['flexibleRollout', 'default']);
    expect(await lastEvent(server, 'change-request-applied')).toMatchObject({
      data: { changeRequestId: id },
    });
    expect(await lastEvent(server, 'feature-environment-enabled')).toMatchObject({ featureName: 'checkout' });
    // Applied is final.
    expect((await setState(reviewer, id, 'Applied')).status).toBe(400);
    expect((await setState(author, id, 'Cancelled')).status).toBe(400);
    expect((await as(author, 'GET', `${BASE}/count`)).body).toMatchObject({ applied: 1, total: 1 });
  });
});

describe('what stops a change request', () => {
  it('applies nothing when one of its changes fails', async () => {
    const id = await approvedByBoth([
      { feature: 'search', action: 'updateEnabled', payload: { enabled: true } },
      { feature: 'search', action: 'addStrategy', payload: { name: 'default', segments: [999999] } },
    ]);
    const failed = await setState(reviewer, id, 'Applied');
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.text).toContain('999999');
    expect((await featureEnvironment(server, 'search', 'production', PROJECT)).enabled).toBe(false);
    expect((await as(reviewer, 'GET', `${BASE}/${id}`)).body.state).toBe('Approved');
    expect((await setState(author, id, 'Cancelled')).body.state).toBe('Cancelled');
  });

  it('shows a change whose strategy changed since as a conflict, and refuses to apply it', async () => {
    const [strategy] = await strategiesOf('checkout');
    const id = await approvedByBoth([
      {
        feature: 'checkout',
        action: 'updateStrategy',
        payload: { ...strategy, parameters: { ...strategy.parameters, rollout: '50' } },
      },
      { feature: 'checkout', action: 'updateEnabled', payload: { enabled: false } },
    ]);
    const before = (await as(reviewer, 'GET', `${BASE}/${id}`)).body;
    expect(before.features[0].changes[0].payload.snapshot).toMatchObject({
      id: strategy.id,
      parameters: { rollout: '10' },
    });
    expect(before.features[0].conflict).toBeUndefined();
    // An Admin may change it directly.
    await expectStatus(
      server,
      200,
      'PUT',
      `/api/admin/projects/${PROJECT}/features/checkout/environments/production/strategies/${strategy.id}`,
      { ...strategy, parameters: { ...strategy.parameters, rollout: '30' } },
    );
    const after = (await as(reviewer, 'GET', `${BASE}/${id}`)).body;
    expect(after.features[0].changes[0].conflict).toContain('has changed since');
    expect(after.features[0].conflict).toContain('has changed since');
    const refused = await setState(reviewer, id, 'Applied');
    expect(refused.status).toBe(409);
    expect((await featureEnvironment(server, 'checkout', 'production', PROJECT)).enabled).toBe(true);
    expect((await strategiesOf('checkout'))[0].parameters.rollout).toBe('30');
  });

  it('goes back to review when an approved request’s change is edited or removed', async () => {
    const id = await approvedByBoth([
      {
        feature: 'search',
        action: 'patchVariant',
        payload: { variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default' }] },
      },
      { feature: 'search', action: 'archiveFeature' },
    ]);
    const request = (await as(author, 'GET', `${BASE}/${id}`)).body;
    const [variants, archive] = request.features[0].changes;
    const edited = await as(author, 'PUT', `${BASE}/${id}/changes/${variants.id}`, {
      feature: 'search',
      action: 'patchVariant',
      payload: { variants: [{ name: 'b', weight: 1000, weightType: 'variable', stickiness: 'default' }] },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.state).toBe('In review');
    expect(edited.body.approvals).toEqual([]);
    expect(edited.body.features[0].changes.map((c: any) => c.action)).toEqual([
      'archiveFeature',
      'patchVariant',
    ]);
    expect(edited.body.features[0].changes[1].id).not.toBe(variants.id);
    expect((await as(reviewer, 'DELETE', `${BASE}/${id}/changes/${archive.id}`)).status).toBe(403);
    expect((await as(author, 'DELETE', `${BASE}/${id}/changes/${archive.id}`)).status).toBe(200);
    expect((await as(author, 'DELETE', `${BASE}/${id}/changes/${archive.id}`)).status).toBe(404);
    expect(await lastEvent(server, 'change-discarded')).toMatchObject({
      data: { changeRequestId: id, changeId: archive.id },
    });
    // With every change removed, there is nothing to approve.
    const [left] = (await as(author, 'GET', `${BASE}/${id}`)).body.features[0].changes;
    expect((await as(author, 'DELETE', `${BASE}/${id}/changes/${left.id}`)).status).toBe(200);
    const empty = await setState(reviewer, id, 'Approved');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('no changes');

    const rejected = await setState(reviewer, id, 'Rejected', 'Not this week');
    expect(rejected.body).toMatchObject({
      state: 'Rejected',
      rejections: [{ createdBy: { id: reviewer.id } }],
    });
    expect(rejected.body.comments.map((c: any) => c.text)).toContain('Not this week');
    expect((await setState(reviewer, id, 'Applied')).status).toBe(400);
  });

  it('refuses bad changes, unknown flags and strategies, tokens and environments without change requests', async () => {
    const pending = (await as(author, 'GET', `${BASE}/pending`)).body;
    const bad = await as(author, 'POST', DRAFT, {
      feature: 'search',
      action: 'updateEnabled',
      payload: { enabled: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
    expect((await as(author, 'POST', DRAFT, { feature: 'search', action: 'flyToTheMoon' })).status).toBe(400);
    expect(
      (await as(author, 'POST', DRAFT, { action: 'updateEnabled', payload: { enabled: true } })).status,
    ).toBe(400);
    expect((await as(author, 'POST', DRAFT, { feature: 'nowhere', action: 'archiveFeature' })).status).toBe(
      404,
    );
    const unknownStrategy = await as(author, 'POST', DRAFT, {
      feature: 'search',
      action: 'deleteStrategy',
      payload: { id: 'nope' },
    });
    expect(unknownStrategy.status).toBe(404);
    // A strategy is checked as the direct change checks it, when it is added.
    const rollout = await as(author, 'POST', DRAFT, {
      feature: 'search',
      action: 'addStrategy',
      payload: {
        name: 'flexibleRollout',
        parameters: { rollout: '500', stickiness: 'default', groupId: 'g' },
      },
    });
    expect(rollout.status).toBe(400);
    expect(rollout.text).toContain('rollout');
    const token = await asAdmin(server, 'POST', DRAFT, { feature: 'search', action: 'archiveFeature' });
    expect(token.status).toBe(403);
    const direct = await as(
      author,
      'POST',
      `/api/admin/projects/${PROJECT}/environments/development/change-requests`,
      {
        feature: 'search',
        action: 'archiveFeature',
      },
    );
    expect(direct.status).toBe(400);
    expect(direct.text).toContain('does not take change requests');
    // A change the caller could not make directly is not theirs to ask for either.
    const noRight = await as(onlooker, 'POST', DRAFT, {
      feature: 'search',
      action: 'updateEnabled',
      payload: { enabled: true },
    });
    expect(noRight.status).toBe(403);
    expect((await as(author, 'GET', `${BASE}/pending`)).body).toEqual(pending);
  });
});

describe('around the review', () => {
  it('names the request, takes comments, asks reviewers and finds it', async () => {
    // What the action does not take is not kept.
    const id = await inReview({
      feature: 'search',
      action: 'updateEnabled',
      payload: { enabled: true, note: 'x' },
    });
    expect((await as(author, 'GET', `${BASE}/${id}`)).body.features[0].changes[0].payload).toEqual({
      enabled: true,
    });
    expect((await as(author, 'PUT', `${BASE}/${id}/title`, { title: 'Search for everyone' })).status).toBe(
      204,
    );
    expect((await as(reviewer, 'PUT', `${BASE}/${id}/title`, { title: 'Mine now' })).status).toBe(403);
    expect((await as(onlooker, 'POST', `${BASE}/${id}/comments`, { text: 'Looks good' })).status).toBe(204);

    const available = (await as(author, 'GET', `${BASE}/available-reviewers/production`)).body.reviewers;
    expect(available.map((u: any) => u.id)).toEqual(expect.arrayContaining([reviewer.id, secondReviewer.id]));
    expect(available.map((u: any) => u.id)).not.toContain(author.id);
    expect((await as(author, 'PUT', `${BASE}/${id}/approvers`, { reviewers: [reviewer.id] })).status).toBe(
      204,
    );
    expect((await as(author, 'PUT', `${BASE}/${id}/approvers`, { reviewers: [999_999] })).status).toBe(400);
    expect((await as(author, 'GET', `${BASE}/${id}/approvers`)).body.reviewers.map((u: any) => u.id)).toEqual(
      [reviewer.id],
    );
    expect(await lastEvent(server, 'change-request-requested-approvers-updated')).toMatchObject({
      data: { changeRequestId: id, reviewers: [reviewer.id] },
    });

    const request = (await as(onlooker, 'GET', `${BASE}/${id}`)).body;
    expect(request.title).toBe('Search for everyone');
    expect(request.comments.map((c: any) => c.text)).toContain('Looks good');
    const forFlag = (await as(onlooker, 'GET', `${BASE}/pending/search`)).body;
    expect(forFlag.map((r: any) => r.id)).toContain(id);

    const search = await as(
      onlooker,
      'GET',
      `/api/admin/search/change-requests?requestedApproverId=${reviewer.id}&state=IS:open`,
    );
    expect(search.status, search.text).toBe(200);
    expect(search.body).toMatchObject({
      total: 1,
      changeRequests: [
        { id, title: 'Search for everyone', project: PROJECT, features: ['search'], state: 'In review' },
      ],
    });
    const closed = await as(onlooker, 'GET', `/api/admin/search/change-requests?state=IS:closed&limit=1`);
    expect(closed.body.changeRequests).toHaveLength(1);
    expect(closed.body.total).toBeGreaterThanOrEqual(3);
    const past = await as(onlooker, 'GET', `/api/admin/search/change-requests?state=IS:closed&offset=500`);
    expect(past.body).toEqual({ changeRequests: [], total: closed.body.total });

    expect((await as(reviewer, 'PUT', `${BASE}/${id}/state`, { state: 'Cancelled' })).status).toBe(403);
    expect((await as(author, 'DELETE', `${BASE}/${id}`)).status).toBe(200);
    expect((await as(author, 'GET', `${BASE}/${id}`)).status).toBe(404);
    expect(await lastEvent(server, 'change-request-discarded')).toMatchObject({
      data: { changeRequestId: id },
    });
  });

  it('lets an Admin approve and apply their own request, and carries segment changes', async () => {
    const admin = await createUser(server, 1);
    const segment = await expectStatus(server, 201, 'POST', '/api/admin/segments', {
      name: 'beta-testers',
      project: PROJECT,
      constraints: [],
    });
    const draft = await as(admin, 'POST', DRAFT, {
      action: 'updateSegment',
      payload: {
        id: segment.body.id,
        name: 'beta-testers',
        project: PROJECT,
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }],
      },
    });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body.segments).toMatchObject([{ action: 'updateSegment', name: 'beta-testers' }]);
    const id = draft.body.id;
    expect((await setState(admin, id, 'In review')).status).toBe(200);
    expect((await setState(admin, id, 'Approved')).status).toBe(200);
    expect((await setState(reviewer, id, 'Approved')).body.state).toBe('Approved');
    expect((await setState(admin, id, 'Applied')).status).toBe(200);
    const after = await expectStatus(server, 200, 'GET', `/api/admin/segments/${segment.body.id}`);
    expect(after.body.constraints).toMatchObject([{ contextName: 'userId', values: ['1'] }]);
  });
});

describe('the playground of a change request', () => {
  it('evaluates its flags as the request would leave them, and nothing else changes', async () => {
    await createFeature(server, 'preview', PROJECT);
    // The strategy first: switched on with one active, the flag gets no default strategy.
    const id = await inReview([
      {
        feature: 'preview',
        action: 'addStrategy',
        payload: { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] },
      },
      { feature: 'preview', action: 'updateEnabled', payload: { enabled: true } },
    ]);
    const evaluate = async (userId: string) => {
      const res = await as(onlooker, 'POST', `/api/admin/playground/change-request/${id}`, {
        context: { appName: 'web', userId },
      });
      expect(res.status, res.text).toBe(200);
      const feature = res.body.features.find((f: any) => f.name === 'preview');
      return feature.environments.production[0];
    };
    expect(await evaluate('1')).toMatchObject({ isEnabled: true, isEnabledInCurrentEnvironment: true });
    expect((await evaluate('1')).strategies.data).toMatchObject([
      { name: 'default', result: { enabled: true } },
    ]);
    expect((await evaluate('2')).isEnabled).toBe(false);
    // The flag itself is as it was.
    const live = await asAdmin(server, 'POST', '/api/admin/playground', {
      environment: 'production',
      projects: [PROJECT],
      context: { appName: 'web', userId: '1' },
    });
    expect(live.body.features.find((f: any) => f.name === 'preview')).toMatchObject({ isEnabled: false });
    expect((await featureEnvironment(server, 'preview', 'production', PROJECT)).strategies).toEqual([]);

    expect(
      (
        await as(onlooker, 'POST', '/api/admin/playground/change-request/999999', {
          context: { appName: 'web' },
        })
      ).status,
    ).toBe(404);
    expect((await setState(author, id, 'Cancelled')).status).toBe(200);
    const closed = await as(onlooker, 'POST', `/api/admin/playground/change-request/${id}`, {
      context: { appName: 'web' },
    });
    expect(closed.status).toBe(400);
  });

  it('shows the strategy a flag switched on with none would be given, as applying gives it', async () => {
    await createFeature(server, 'bare-preview', PROJECT);
    const id = await approvedByBoth([
      { feature: 'bare-preview', action: 'updateEnabled', payload: { enabled: true } },
    ]);
    const res = await as(onlooker, 'POST', `/api/admin/playground/change-request/${id}`, {
      context: { appName: 'web', userId: '2' },
    });
    expect(res.status, res.text).toBe(200);
    const previewed = res.body.features.find((f: any) => f.name === 'bare-preview').environments
      .production[0];
    expect(previewed.isEnabled).toBe(true);
    expect(previewed.strategies.data).toMatchObject([
      { name: 'flexibleRollout', parameters: { rollout: '100', groupId: 'bare-preview' } },
    ]);
    expect((await setState(reviewer, id, 'Applied')).status).toBe(200);
    expect(await strategiesOf('bare-preview')).toMatchObject([
      { name: 'flexibleRollout', parameters: { rollout: '100', groupId: 'bare-preview' } },
    ]);
  });
});

describe('a change of the order of strategies', () => {
  it('is a list, kept and read back as one, and applied', async () => {
    await createFeature(server, 'ordered', PROJECT);
    const url = `/api/admin/projects/${PROJECT}/features/ordered/environments/production/strategies`;
    const admin = await createUser(server, 1);
    const add = async (name: string) =>
      (await server.request('POST', url, { token: admin.pat, body: { name, parameters: {} } })).body.id;
    const first = await add('default');
    const second = await add('userWithId');
    const order = [
      { id: second, sortOrder: 0 },
      { id: first, sortOrder: 1 },
    ];
    const draft = await as(author, 'POST', DRAFT, {
      feature: 'ordered',
      action: 'reorderStrategy',
      payload: order,
    });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body.features[0].changes[0].payload).toEqual(order);
    const id = draft.body.id;
    expect((await setState(author, id, 'In review')).status).toBe(200);
    expect((await setState(reviewer, id, 'Approved')).status).toBe(200);
    expect((await setState(secondReviewer, id, 'Approved')).body.state).toBe('Approved');
    expect((await setState(reviewer, id, 'Applied')).status).toBe(200);
    expect((await strategiesOf('ordered')).map((st: any) => st.id)).toEqual([second, first]);
  });
});

describe('a first change sent twice at once', () => {
  it('makes one draft, which both join', async () => {
    const user = await projectMember(server, PROJECT, FLAG_EDITING);
    const send = (enabled: boolean) =>
      as(user, 'POST', DRAFT, { feature: 'search', action: 'updateEnabled', payload: { enabled } });
    const [a, b] = await Promise.all([send(true), send(false)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).toBe(b.body.id);
    expect((await as(user, 'GET', `${BASE}/pending`)).body).toHaveLength(1);
  });
});
