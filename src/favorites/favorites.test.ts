import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, expectStatus } from '../../test/feature-ops.js';
import { CLIENT_TOKEN, createFeature, createProject, expectRefused, startEnv } from '../../test/features.js';
import {
  countEvents,
  createUser,
  lastEvent,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../test/server.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  server = await startTestServer(startEnv());
  alice = await createUser(server, 3);
  bob = await createUser(server, 3);
  await createProject(server, 'other');
  await createFeature(server, 'fav-one');
  await createFeature(server, 'fav-two');
});
afterAll(() => server.close());

const as = (user: TestUser, method: string, url: string) => server.request(method, url, { token: user.pat });
const FEATURE = (name: string, project = 'default') =>
  `/api/admin/projects/${project}/features/${name}/favorites`;
const PROJECT = (project: string) => `/api/admin/projects/${project}/favorites`;

async function favoriteFeatures(user: TestUser) {
  const list = await server.request('GET', '/api/admin/projects/default/features', { token: user.pat });
  return list.body.features
    .filter((f: { favorite: boolean }) => f.favorite)
    .map((f: { name: string }) => f.name);
}
async function favoriteProjects(user: TestUser) {
  const list = await server.request('GET', '/api/admin/projects', { token: user.pat });
  return list.body.projects.filter((p: { favorite: boolean }) => p.favorite).map((p: { id: string }) => p.id);
}

describe('favorite features', () => {
  it('marks the feature for that user only, in the list and the feature; a Viewer may', async () => {
    const revision = server.ctx.model.revision;
    const res = await as(alice, 'POST', FEATURE('fav-one'));
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await favoriteFeatures(alice)).toEqual(['fav-one']);
    expect(await favoriteFeatures(bob)).toEqual([]);
    const single = await server.request('GET', '/api/admin/projects/default/features/fav-one', {
      token: alice.pat,
    });
    expect(single.body.favorite).toBe(true);
    const forBob = await server.request('GET', '/api/admin/projects/default/features/fav-one', {
      token: bob.pat,
    });
    expect(forBob.body.favorite).toBe(false);
    // A bookmark, not configuration: SDKs see no new revision.
    expect(server.ctx.model.revision).toBe(revision);
    expect(await lastEvent(server, 'feature-favorited')).toMatchObject({
      featureName: 'fav-one',
      project: 'default',
      createdBy: alice.username,
      data: { feature: 'fav-one' },
    });
  });

  it('records nothing when the feature already is, or is not, a favorite', async () => {
    const events = await countEvents(server);
    expect((await as(alice, 'POST', FEATURE('fav-one'))).status).toBe(200);
    expect((await as(bob, 'DELETE', FEATURE('fav-two'))).status).toBe(200);
    expect(await countEvents(server)).toBe(events);
  });

  it('takes it off again, with its event; an archived feature too', async () => {
    await as(alice, 'POST', FEATURE('fav-two'));
    expect((await as(alice, 'DELETE', FEATURE('fav-one'))).status).toBe(200);
    expect(await favoriteFeatures(alice)).toEqual(['fav-two']);
    expect(await lastEvent(server, 'feature-unfavorited')).toMatchObject({ featureName: 'fav-one' });
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/fav-two');
    expect((await as(alice, 'DELETE', FEATURE('fav-two'))).status).toBe(200);
    await expectStatus(server, 200, 'POST', '/api/admin/projects/default/revive', { features: ['fav-two'] });
    expect(await favoriteFeatures(alice)).toEqual([]);
  });

  it('answers 404 for unknown or misplaced features (and for favoriting an archived one)', async () => {
    await createFeature(server, 'fav-gone');
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/fav-gone');
    const read = () => favoriteFeatures(alice);
    await expectRefused(server, 404, () => as(alice, 'POST', FEATURE('ghost')), read);
    await expectRefused(server, 404, () => as(alice, 'POST', FEATURE('fav-one', 'other')), read);
    await expectRefused(server, 404, () => as(alice, 'DELETE', FEATURE('ghost')), read);
    await expectRefused(server, 404, () => as(alice, 'POST', FEATURE('fav-gone')), read);
  });
});

describe('favorite projects', () => {
  it('marks the project in the project list for that user only; takes it off', async () => {
    expect((await as(bob, 'POST', PROJECT('other'))).status).toBe(200);
    expect(await favoriteProjects(bob)).toEqual(['other']);
    expect(await favoriteProjects(alice)).toEqual([]);
    expect(await lastEvent(server, 'project-favorited')).toMatchObject({
      project: 'other',
      data: { project: 'other' },
    });
    expect((await as(bob, 'DELETE', PROJECT('other'))).status).toBe(200);
    expect(await favoriteProjects(bob)).toEqual([]);
    expect(await lastEvent(server, 'project-unfavorited')).toMatchObject({ project: 'other' });
  });

  it('answers 404 for an unknown project', async () => {
    const read = () => favoriteProjects(bob);
    await expectRefused(server, 404, () => as(bob, 'POST', PROJECT('ghost')), read);
    await expectRefused(server, 404, () => as(bob, 'DELETE', PROJECT('ghost')), read);
  });
});

describe('who may', () => {
  it('refuses API tokens (no user to keep favorites for) and requests without credentials with 401', async () => {
    const read = () => favoriteFeatures(alice);
    for (const url of [FEATURE('fav-one'), PROJECT('default')]) {
      for (const method of ['POST', 'DELETE']) {
        await expectRefused(server, 401, () => server.request(method, url), read);
        await expectRefused(server, 401, () => asAdmin(server, method, url), read);
      }
    }
    const admin = await server.request('GET', '/api/admin/projects/default/features', {
      token: server.adminToken,
    });
    expect(admin.body.features.every((f: { favorite: boolean }) => !f.favorite)).toBe(true);
  });

  it('refuses client tokens with 403', async () => {
    const read = () => favoriteFeatures(alice);
    await expectRefused(
      server,
      403,
      () => server.request('POST', FEATURE('fav-one'), { token: CLIENT_TOKEN }),
      read,
    );
    await expectRefused(
      server,
      403,
      () => server.request('POST', PROJECT('default'), { token: CLIENT_TOKEN }),
      read,
    );
  });
});
