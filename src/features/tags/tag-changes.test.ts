import { describe, expect, it } from 'vitest';
import { asAdmin, eventsAbout, expectStatus, projectMember } from '../../../test/feature-ops.js';
import {
  callers,
  createFeature,
  createProject,
  expectCallerRefusals,
  expectRefused,
  server,
  useFeatureServer,
} from '../../../test/features.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
  for (const name of ['t-one', 't-two', 't-three']) await createFeature(server, name);
  await createFeature(server, 't-elsewhere', 'other');
});

const tagsOf = async (name: string) =>
  (await asAdmin(server, 'GET', `/api/admin/features/${name}/tags`)).body.tags as {
    type: string;
    value: string;
  }[];
const allTags = async () => ({
  one: await tagsOf('t-one'),
  two: await tagsOf('t-two'),
  three: await tagsOf('t-three'),
});
const tag = (value: string) => ({ type: 'simple', value });

describe('PUT /api/admin/features/:featureName/tags', () => {
  it('adds and takes off tags at once, answers the tags; tags are created when new', async () => {
    await expectStatus(server, 201, 'POST', '/api/admin/features/t-one/tags', tag('old'));
    const res = await expectStatus(server, 200, 'PUT', '/api/admin/features/t-one/tags', {
      addedTags: [tag('blue'), tag('green')],
      removedTags: [tag('old'), tag('never-there')],
    });
    expect(res.body).toEqual({ version: 1, tags: [tag('blue'), tag('green')] });
    expect(await tagsOf('t-one')).toEqual([tag('blue'), tag('green')]);
    expect((await asAdmin(server, 'GET', '/api/admin/tags/simple/green')).status).toBe(200);
    const tagged = await eventsAbout(server, 't-one', 'feature-tagged');
    expect(
      tagged
        .slice(0, 2)
        .map((e) => e.data.value)
        .sort(),
    ).toEqual(['blue', 'green']);
    const untagged = await eventsAbout(server, 't-one', 'feature-untagged');
    expect(untagged).toHaveLength(1);
    expect(untagged[0]).toMatchObject({ project: 'default', preData: tag('old') });
  });

  it('records nothing for tags the feature has already, or does not have', async () => {
    const before = (await eventsAbout(server, 't-one', 'feature-tagged')).length;
    await expectStatus(server, 200, 'PUT', '/api/admin/features/t-one/tags', {
      addedTags: [tag('blue')],
      removedTags: [tag('nothing')],
    });
    expect(await eventsAbout(server, 't-one', 'feature-tagged')).toHaveLength(before);
  });

  it('refuses an unknown tag type or a bad body (400) and an unknown feature (404), changing nothing', async () => {
    const read = () => allTags();
    const url = '/api/admin/features/t-two/tags';
    for (const body of [
      { addedTags: [{ type: 'no-such-type', value: 'x1' }], removedTags: [] },
      { addedTags: [tag('x')], removedTags: [] },
      { addedTags: [{ value: 'no-type' }], removedTags: [] },
      { addedTags: [tag('fine')] },
      { addedTags: [tag('fine')], removedTags: [], extra: true },
    ]) {
      await expectRefused(server, 400, () => asAdmin(server, 'PUT', url, body), read);
    }
    await expectRefused(
      server,
      404,
      () =>
        asAdmin(server, 'PUT', '/api/admin/features/ghost/tags', {
          addedTags: [tag('fine')],
          removedTags: [],
        }),
      read,
    );
  });
});

describe('PUT /api/admin/projects/:projectId/tags', () => {
  it('changes the tags of several features in one go, with an event per change', async () => {
    await expectStatus(server, 200, 'PUT', '/api/admin/projects/default/tags', {
      features: ['t-two', 't-three'],
      tags: { addedTags: [tag('release-1'), tag('team-a')], removedTags: [] },
    });
    expect(await tagsOf('t-two')).toEqual([tag('release-1'), tag('team-a')]);
    expect(await tagsOf('t-three')).toEqual([tag('release-1'), tag('team-a')]);
    const res = await expectStatus(server, 200, 'PUT', '/api/admin/projects/default/tags', {
      features: ['t-two', 't-three'],
      tags: { addedTags: [], removedTags: [tag('team-a')] },
    });
    expect(res.text).toBe('');
    expect(await tagsOf('t-three')).toEqual([tag('release-1')]);
    for (const name of ['t-two', 't-three']) {
      expect(await eventsAbout(server, name, 'feature-tagged')).toHaveLength(2);
      expect(await eventsAbout(server, name, 'feature-untagged')).toHaveLength(1);
    }
  });

  it('refuses another project’s feature (400), unknown features and projects (404), as a whole', async () => {
    const read = () => allTags();
    const body = (features: string[]) => ({ features, tags: { addedTags: [tag('nope')], removedTags: [] } });
    await expectRefused(
      server,
      400,
      () => asAdmin(server, 'PUT', '/api/admin/projects/default/tags', body(['t-two', 't-elsewhere'])),
      read,
    );
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'PUT', '/api/admin/projects/default/tags', body(['t-two', 'ghost'])),
      read,
    );
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'PUT', '/api/admin/projects/ghost/tags', body([])),
      read,
    );
    await expectRefused(
      server,
      400,
      () => asAdmin(server, 'PUT', '/api/admin/projects/default/tags', { features: 't-two', tags: {} }),
      read,
    );
  });
});

describe('who may change tags', () => {
  it('needs UPDATE_FEATURE in the feature’s project', async () => {
    const read = () => allTags();
    const changes = { addedTags: [tag('by-someone')], removedTags: [] };
    await expectCallerRefusals(
      server,
      callers,
      { method: 'PUT', url: '/api/admin/features/t-two/tags', body: changes },
      read,
    );
    await expectCallerRefusals(
      server,
      callers,
      {
        method: 'PUT',
        url: '/api/admin/projects/default/tags',
        body: { features: ['t-two'], tags: changes },
      },
      read,
    );
    const member = await projectMember(server, 'other', ['UPDATE_FEATURE']);
    await expectRefused(
      server,
      403,
      () => server.request('PUT', '/api/admin/features/t-two/tags', { token: member.pat, body: changes }),
      read,
    );
    const allowed = await server.request('PUT', '/api/admin/features/t-elsewhere/tags', {
      token: member.pat,
      body: changes,
    });
    expect(allowed.status).toBe(200);
  });
});
