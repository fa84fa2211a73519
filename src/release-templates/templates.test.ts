import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, expectStatus } from '../../test/requests.js';
import {
  countEvents,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

const BASE = '/api/admin/release-plan-templates';
let server: TestServer;
let editor: TestUser;
let viewer: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  editor = await createUser(server, 2);
  viewer = await createUser(server, 3);
});
afterAll(() => server.close());

const rollout = (percent: number) => ({
  name: 'flexibleRollout',
  parameters: { rollout: percent, stickiness: 'default', groupId: '' },
  constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }],
});
const progressive = {
  name: 'Progressive',
  description: 'Staff first, then everyone by steps',
  milestones: [
    { name: 'Everyone', sortOrder: 2, strategies: [{ strategyName: 'default' }] },
    { name: 'Staff', sortOrder: 0, strategies: [rollout(10)] },
    { name: 'Half', sortOrder: 1, strategies: [rollout(50), { ...rollout(5), title: 'Beta' }] },
  ],
};

describe('release templates', () => {
  let id: string;

  it('creates one: its milestones in order, each strategy checked, with ids; one event', async () => {
    const res = await asAdmin(server, 'POST', BASE, progressive);
    expect(res.status, res.text).toBe(200);
    id = res.body.id;
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(res.body).toMatchObject({
      discriminator: 'template',
      name: 'Progressive',
      description: 'Staff first, then everyone by steps',
      project: null,
      archivedAt: null,
    });
    expect(res.body.milestones.map((m: any) => [m.name, m.sortOrder])).toEqual([
      ['Staff', 0],
      ['Half', 1],
      ['Everyone', 2],
    ]);
    const [staff, half, everyone] = res.body.milestones;
    expect(staff.releasePlanDefinitionId).toBe(id);
    expect(staff.strategies[0]).toMatchObject({
      milestoneId: staff.id,
      name: 'flexibleRollout',
      strategyName: 'flexibleRollout',
      parameters: { rollout: '10', stickiness: 'default', groupId: '' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }],
      disabled: false,
      title: null,
    });
    expect(half.strategies.map((s: any) => [s.sortOrder, s.title])).toEqual([
      [0, null],
      [1, 'Beta'],
    ]);
    expect(everyone.strategies[0]).toMatchObject({ name: 'default', parameters: {} });
    expect(await lastEvent(server, 'release-plan-template-created')).toMatchObject({
      data: { id, name: 'Progressive' },
    });
    expect((await expectStatus(server, 200, 'GET', `${BASE}/${id}`)).body).toEqual(res.body);
    expect((await expectStatus(server, 200, 'GET', BASE)).body.map((t: any) => t.id)).toEqual([id]);
  });

  it('refuses a taken name (409) and bad milestones (400), making nothing', async () => {
    const taken = await asAdmin(server, 'POST', BASE, { name: 'Progressive' });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe('NameExistsError');
    const bad = async (milestones: unknown[]) => {
      const res = await asAdmin(server, 'POST', BASE, { name: 'Broken', milestones });
      expect(res.status, res.text).toBe(400);
      expect(res.body.name).toBe('ValidationError');
      return res.body;
    };
    expect((await bad([{ name: 'm', strategies: [{ name: 'noSuchType' }] }])).message).toContain(
      'noSuchType',
    );
    await bad([
      {
        name: 'm',
        strategies: [
          { name: 'default', constraints: [{ contextName: 'userId', operator: 'NEAR', values: [] }] },
        ],
      },
    ]);
    await bad([{ name: 'm', strategies: [{ name: 'default', segments: [9999] }] }]);
    await bad([{ name: 'm', strategies: [{ title: 'no type' }] }]);
    await bad([{ strategies: [] }]);
    expect((await asAdmin(server, 'POST', BASE, { name: '' })).status).toBe(400);
    expect((await expectStatus(server, 200, 'GET', BASE)).body).toHaveLength(1);
    expect((await asAdmin(server, 'GET', `${BASE}/NOSUCHTEMPLATE`)).status).toBe(404);
  });

  it("takes segments of no project, each strategy keeping its own without duplicates; a project's segment is refused", async () => {
    const segment = async (name: string, project?: string) =>
      (await asAdmin(server, 'POST', '/api/admin/segments', { name, constraints: [], project })).body
        .id as number;
    const [a, b, local] = [
      await segment('tpl-a'),
      await segment('tpl-b'),
      await segment('tpl-local', 'default'),
    ];
    const res = await asAdmin(server, 'POST', BASE, {
      name: 'With segments',
      milestones: [
        { name: 'one', strategies: [{ name: 'default', segments: [b, a, b] }] },
        { name: 'two', strategies: [{ name: 'default', segments: [a] }, { name: 'default' }] },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.milestones.map((m: any) => m.strategies.map((s: any) => s.segments))).toEqual([
      [[a, b]],
      [[a], []],
    ]);
    const refused = await asAdmin(server, 'POST', BASE, {
      name: 'With a project segment',
      milestones: [{ name: 'one', strategies: [{ name: 'default', segments: [a, local] }] }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'The segment "tpl-local" belongs to a project: only segments of no project can be used here.',
    );
    // Out of the way of the next tests, which count the templates listed.
    expect((await asAdmin(server, 'DELETE', `${BASE}/${res.body.id}`)).status).toBe(200);
  });

  it('replaces its milestones whole on a change (new ids), recording before and after', async () => {
    const before = (await expectStatus(server, 200, 'GET', `${BASE}/${id}`)).body;
    const res = await asAdmin(server, 'PUT', `${BASE}/${id}`, {
      id,
      name: 'Progressive rollout',
      milestones: [
        { id: before.milestones[0].id, name: 'Staff only', sortOrder: 0, strategies: [rollout(1)] },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
    const after = (await expectStatus(server, 200, 'GET', `${BASE}/${id}`)).body;
    expect(after).toMatchObject({ name: 'Progressive rollout', description: null });
    expect(after.milestones.map((m: any) => m.name)).toEqual(['Staff only']);
    expect(after.milestones[0].id).not.toBe(before.milestones[0].id);
    const event = await lastEvent(server, 'release-plan-template-updated');
    expect(event.preData.name).toBe('Progressive');
    expect(event.data.name).toBe('Progressive rollout');
    expect((await asAdmin(server, 'PUT', `${BASE}/NOSUCHTEMPLATE`, { name: 'x' })).status).toBe(404);
  });

  it('lets Editors create and change templates, not delete or archive them; Viewers only read', async () => {
    const made = await server.request('POST', BASE, { token: editor.pat, body: { name: 'Canary' } });
    expect(made.status, made.text).toBe(200);
    const canary = made.body.id;
    expect(
      (await server.request('PUT', `${BASE}/${canary}`, { token: editor.pat, body: { name: 'Canary 2' } }))
        .status,
    ).toBe(200);
    // A name in use elsewhere is refused on a change too.
    const clash = await server.request('PUT', `${BASE}/${canary}`, {
      token: editor.pat,
      body: { name: 'Progressive rollout' },
    });
    expect(clash.status).toBe(409);
    expect((await server.request('DELETE', `${BASE}/${canary}`, { token: editor.pat })).status).toBe(403);
    expect((await server.request('POST', `${BASE}/archive/${canary}`, { token: editor.pat })).status).toBe(
      403,
    );
    expect((await server.request('GET', BASE, { token: viewer.pat })).status).toBe(200);
    const byViewer = await server.request('POST', BASE, { token: viewer.pat, body: { name: 'Nope' } });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.name).toBe('NoAccessError');
    expect((await server.request('GET', BASE)).status).toBe(401);
  });

  it('archives one: no longer listed, still readable, its name free again', async () => {
    const events = await countEvents(server, 'release-plan-template-archived');
    expect((await asAdmin(server, 'POST', `${BASE}/archive/${id}`)).status).toBe(200);
    expect(await countEvents(server, 'release-plan-template-archived')).toBe(events + 1);
    // Archiving again changes nothing.
    expect((await asAdmin(server, 'POST', `${BASE}/archive/${id}`)).status).toBe(200);
    expect(await countEvents(server, 'release-plan-template-archived')).toBe(events + 1);
    const listed = (await expectStatus(server, 200, 'GET', BASE)).body.map((t: any) => t.name);
    expect(listed).toEqual(['Canary 2']);
    expect((await expectStatus(server, 200, 'GET', `${BASE}/${id}`)).body.archivedAt).not.toBeNull();
    expect((await asAdmin(server, 'POST', BASE, { name: 'Progressive rollout' })).status).toBe(200);
  });

  it('deletes one for good', async () => {
    expect((await asAdmin(server, 'DELETE', `${BASE}/${id}`)).status).toBe(200);
    expect((await asAdmin(server, 'GET', `${BASE}/${id}`)).status).toBe(404);
    expect((await lastEvent(server, 'release-plan-template-deleted')).preData.id).toBe(id);
    expect((await asAdmin(server, 'DELETE', `${BASE}/${id}`)).status).toBe(404);
  });
});
