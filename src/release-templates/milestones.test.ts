import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, expectStatus } from '../../test/requests.js';
import { countEvents, createUser, lastEvent, startTestServer, type TestServer } from '../../test/server.js';

const BASE = '/api/admin/release-plan-templates';
let server: TestServer;
let id: string;
beforeAll(async () => {
  server = await startTestServer();
  const made = await expectStatus(server, 200, 'POST', BASE, {
    name: 'Steps',
    milestones: [{ name: 'First', sortOrder: 0, strategies: [{ name: 'default' }] }],
  });
  id = made.body.id;
});
afterAll(() => server.close());

const template = async () => (await expectStatus(server, 200, 'GET', `${BASE}/${id}`)).body;

describe('the milestones of a release template, one at a time', () => {
  it('adds a milestone, checked as a whole template is, placed by its sort order; an event each', async () => {
    const events = await countEvents(server, 'release-plan-template-updated');
    const res = await asAdmin(server, 'POST', `${BASE}/${id}/milestones`, {
      name: 'Zero',
      sortOrder: -1,
      releasePlanDefinitionId: id,
      strategies: [{ name: 'flexibleRollout', parameters: { rollout: 5 } }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Zero', sortOrder: -1, releasePlanDefinitionId: id });
    expect(res.body.strategies[0]).toMatchObject({ milestoneId: res.body.id, parameters: { rollout: '5' } });
    expect((await template()).milestones.map((m: any) => m.name)).toEqual(['Zero', 'First']);
    expect(await countEvents(server, 'release-plan-template-updated')).toBe(events + 1);
    const bad = await asAdmin(server, 'POST', `${BASE}/${id}/milestones`, {
      name: 'Bad',
      strategies: [{ name: 'noSuchType' }],
    });
    expect(bad.status).toBe(400);
    expect((await asAdmin(server, 'POST', `${BASE}/NOSUCH/milestones`, { name: 'x' })).status).toBe(404);
    expect((await template()).milestones).toHaveLength(2);
  });

  it('changes a milestone, keeping its id, and removes one', async () => {
    const [zero, first] = (await template()).milestones;
    const res = await asAdmin(server, 'PUT', `${BASE}/${id}/milestones/${first.id}`, {
      name: 'Everyone',
      sortOrder: 5,
      strategies: [],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: first.id, name: 'Everyone', sortOrder: 5, strategies: [] });
    expect((await asAdmin(server, 'PUT', `${BASE}/${id}/milestones/NOSUCH`, { name: 'x' })).status).toBe(404);
    expect((await asAdmin(server, 'DELETE', `${BASE}/${id}/milestones/${zero.id}`)).status).toBe(200);
    expect((await template()).milestones.map((m: any) => m.id)).toEqual([first.id]);
    expect((await lastEvent(server, 'release-plan-template-updated')).preData.milestones).toHaveLength(2);
    expect((await asAdmin(server, 'DELETE', `${BASE}/${id}/milestones/${zero.id}`)).status).toBe(404);
  });

  it("adds, changes and removes a milestone's strategies", async () => {
    const [milestone] = (await template()).milestones;
    const path = `${BASE}/${id}/milestones/${milestone.id}/strategies`;
    const added = await asAdmin(server, 'POST', path, {
      strategyName: 'userWithId',
      parameters: { userIds: 'a,b' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toMatchObject({
      name: 'userWithId',
      strategyName: 'userWithId',
      milestoneId: milestone.id,
    });
    const changed = await asAdmin(server, 'PUT', `${path}/${added.body.id}`, {
      name: 'default',
      title: 'All',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id: added.body.id, name: 'default', title: 'All', constraints: [] });
    const refused = await asAdmin(server, 'PUT', `${path}/${added.body.id}`, {
      name: 'default',
      constraints: [{ contextName: 'userId', operator: 'SOMETIMES', values: [] }],
    });
    expect(refused.status).toBe(400);
    expect((await template()).milestones[0].strategies[0].title).toBe('All');
    expect((await asAdmin(server, 'PUT', `${path}/NOSUCH`, { name: 'default' })).status).toBe(404);
    expect((await asAdmin(server, 'DELETE', `${path}/${added.body.id}`)).status).toBe(200);
    expect((await template()).milestones[0].strategies).toEqual([]);
  });

  it('takes the permission to update templates: Editors yes, Viewers no', async () => {
    const [milestone] = (await template()).milestones;
    const editor = await createUser(server, 2);
    const viewer = await createUser(server, 3);
    const path = `${BASE}/${id}/milestones/${milestone.id}/strategies`;
    expect(
      (await server.request('POST', path, { token: editor.pat, body: { name: 'default' } })).status,
    ).toBe(200);
    const byViewer = await server.request('POST', path, { token: viewer.pat, body: { name: 'default' } });
    expect(byViewer.status).toBe(403);
    expect((await template()).milestones[0].strategies).toHaveLength(1);
  });
});
