import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant } from '../../test/access.js';
import { asAdmin, expectStatus, send } from '../../test/requests.js';
import {
  createProject,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

const ROOT = '/api/admin/release-plan-templates';
const inProject = (project: string) => `/api/admin/projects/${project}/release-templates`;
const OWNER = 4;

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let segmentOfAlpha: number;
let segmentOfBeta: number;
beforeAll(async () => {
  server = await startTestServer();
  await createProject(server, 'alpha');
  await createProject(server, 'beta');
  // A Viewer of the instance who owns the project alpha.
  owner = await createUser(server, 3);
  await grant(server, 'alpha', { roles: [OWNER], users: [owner.id] });
  editor = await createUser(server, 2);
  const segment = async (name: string, project: string) =>
    (await expectStatus(server, 201, 'POST', '/api/admin/segments', { name, project, constraints: [] })).body
      .id as number;
  segmentOfAlpha = await segment('alpha-staff', 'alpha');
  segmentOfBeta = await segment('beta-staff', 'beta');
});
afterAll(() => server.close());

const names = (list: { name: string }[]) => list.map((t) => t.name);
const steps = (segments: number[] = []) => [
  { name: 'Staff', strategies: [{ name: 'default', segments }] },
  { name: 'Everyone', strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100' } }] },
];

describe("a project's release templates", () => {
  let alphaId: string;

  it("are made by the project's Owners, offered in it only, and may use its segments", async () => {
    const made = await send(
      server,
      'POST',
      inProject('alpha'),
      { name: 'Alpha rollout', milestones: steps([segmentOfAlpha]) },
      owner.pat,
    );
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ discriminator: 'template', name: 'Alpha rollout', project: 'alpha' });
    expect(made.body.milestones[0].strategies[0].segments).toEqual([segmentOfAlpha]);
    alphaId = made.body.id;
    expect(await lastEvent(server, 'release-plan-template-created')).toMatchObject({
      project: 'alpha',
      data: { id: alphaId, project: 'alpha' },
    });

    const other = await send(
      server,
      'POST',
      inProject('alpha'),
      { name: 'Beta segment', milestones: steps([segmentOfBeta]) },
      owner.pat,
    );
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('The segment "beta-staff" belongs to another project than "alpha".');
    // Nor may the project's own segments go into a template of every project.
    expect(
      (await asAdmin(server, 'POST', ROOT, { name: 'Global', milestones: steps([segmentOfAlpha]) })).status,
    ).toBe(400);

    // The Owner of alpha is no one elsewhere: not in beta, not for the templates of every project.
    for (const url of [inProject('beta'), ROOT]) {
      const refused = await send(server, 'POST', url, { name: 'Elsewhere' }, owner.pat);
      expect(refused.status, url).toBe(403);
    }
    expect((await send(server, 'POST', inProject('nowhere'), { name: 'Lost' })).status).toBe(404);
  });

  it('are listed in their project (with include=root, those of every project too), not among those of every project', async () => {
    await expectStatus(server, 200, 'POST', ROOT, { name: 'Everywhere' });
    await expectStatus(server, 200, 'POST', inProject('beta'), { name: 'Beta rollout' });
    expect(names((await expectStatus(server, 200, 'GET', inProject('alpha'))).body)).toEqual([
      'Alpha rollout',
    ]);
    expect(
      names((await expectStatus(server, 200, 'GET', `${inProject('alpha')}?include=root`)).body),
    ).toEqual(['Alpha rollout', 'Everywhere']);
    expect(names((await expectStatus(server, 200, 'GET', ROOT)).body)).toEqual(['Everywhere']);
    expect((await expectStatus(server, 200, 'GET', `${ROOT}/${alphaId}`)).body.project).toBe('alpha');
    expect((await asAdmin(server, 'GET', inProject('nowhere'))).status).toBe(404);
  });

  it('have names unique within their project only', async () => {
    await expectStatus(server, 200, 'POST', inProject('beta'), { name: 'Alpha rollout' });
    await expectStatus(server, 200, 'POST', ROOT, { name: 'Alpha rollout' });
    const taken = await asAdmin(server, 'POST', inProject('alpha'), { name: 'Alpha rollout' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(
      'A release template named "Alpha rollout" already exists in the project "alpha".',
    );
  });

  it("are changed, archived and deleted by the project's Owners, by their project's path or every template's", async () => {
    const put = (url: string, token: string) =>
      send(
        server,
        'PUT',
        url,
        { name: 'Alpha rollout', description: 'Staff, then all', milestones: steps() },
        token,
      );
    expect((await put(`${inProject('alpha')}/${alphaId}`, owner.pat)).status).toBe(200);
    expect((await put(`${ROOT}/${alphaId}`, owner.pat)).status).toBe(200);
    expect((await lastEvent(server, 'release-plan-template-updated')).project).toBe('alpha');
    // Named under another project, the template is not there.
    expect((await put(`${inProject('beta')}/${alphaId}`, server.adminToken)).status).toBe(404);
    // An Editor manages every template, those of projects included.
    expect((await put(`${ROOT}/${alphaId}`, editor.pat)).status).toBe(200);

    const everywhere = (await expectStatus(server, 200, 'GET', ROOT)).body.find(
      (t: { name: string }) => t.name === 'Everywhere',
    ).id;
    expect((await put(`${ROOT}/${everywhere}`, owner.pat)).status).toBe(403);
    const milestone = await send(
      server,
      'POST',
      `${ROOT}/${alphaId}/milestones`,
      { name: 'Half' },
      owner.pat,
    );
    expect(milestone.status, milestone.text).toBe(200);

    const archived = await send(
      server,
      'POST',
      `${inProject('alpha')}/archive/${alphaId}`,
      undefined,
      owner.pat,
    );
    expect(archived.status, archived.text).toBe(200);
    expect(names((await expectStatus(server, 200, 'GET', inProject('alpha'))).body)).toEqual([]);
    expect((await lastEvent(server, 'release-plan-template-archived')).project).toBe('alpha');
    expect((await send(server, 'DELETE', `${ROOT}/${alphaId}`, undefined, owner.pat)).status).toBe(200);
    expect((await asAdmin(server, 'GET', `${ROOT}/${alphaId}`)).status).toBe(404);
    expect((await send(server, 'DELETE', `${ROOT}/${everywhere}`, undefined, owner.pat)).status).toBe(403);
  });
});
