import { beforeAll, describe, expect, it } from 'vitest';
import {
  callers,
  createFeature,
  createProject,
  eventsOf,
  expectCallerRefusals,
  expectRefused,
  grantRole,
  server,
  tagTypes,
  useFeatureServer,
} from '../../test/features.js';
import { admin } from '../../test/requests.js';
import { countEvents, createUser, type TestUser } from '../../test/server.js';

useFeatureServer(async () => {
  await server.request('POST', '/api/admin/tag-types', { token: server.adminToken, body: { name: 'team' } });
});

const allTags = async () => (await server.request('GET', '/api/admin/tags', admin(server))).body.tags;

describe('tags', () => {
  it('creates, lists and reads tags: 201 and tag-created', async () => {
    const res = await server.request('POST', '/api/admin/tags', {
      ...admin(server),
      body: { type: 'team', value: 'payments' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ version: 1, tag: { type: 'team', value: 'payments' } });
    const simple = await server.request('POST', '/api/admin/tags', {
      ...admin(server),
      body: { value: 'no type given' },
    });
    expect(simple.body.tag).toEqual({ type: 'simple', value: 'no type given' });
    expect(await allTags()).toEqual([
      { type: 'simple', value: 'no type given' },
      { type: 'team', value: 'payments' },
    ]);
    const ofType = await server.request('GET', '/api/admin/tags/team', { token: callers.viewer.pat });
    expect(ofType.body).toEqual({ version: 1, tags: [{ type: 'team', value: 'payments' }] });
    const single = await server.request('GET', '/api/admin/tags/simple/no%20type%20given', admin(server));
    expect(single.body).toEqual({ version: 1, tag: { type: 'simple', value: 'no type given' } });
    expect((await server.request('GET', '/api/admin/tags/team/nope', admin(server))).status).toBe(404);
    expect((await server.request('GET', '/api/admin/tags/nope', admin(server))).status).toBe(404);
    expect((await eventsOf(server, 'type=tag-created'))[0]).toMatchObject({
      data: { type: 'simple', value: 'no type given' },
    });
  });

  it('refuses duplicates (409), unknown types (404), bad values (400) and bad callers', async () => {
    const url = '/api/admin/tags';
    await expectRefused(
      server,
      409,
      () => server.request('POST', url, { ...admin(server), body: { type: 'team', value: 'payments' } }),
      allTags,
    );
    await expectRefused(
      server,
      404,
      () => server.request('POST', url, { ...admin(server), body: { type: 'nope', value: 'payments' } }),
      allTags,
    );
    for (const body of [
      { type: 'team' },
      { type: 'team', value: 'x' },
      { type: 'team', value: 'x'.repeat(51) },
      { type: 't', value: 'okay' },
      { type: 'team', value: 12 },
      { type: 'team', value: 'okay', extra: 1 },
    ]) {
      await expectRefused(
        server,
        400,
        () => server.request('POST', url, { ...admin(server), body }),
        allTags,
        JSON.stringify(body),
      );
    }
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url, body: { type: 'team', value: 'sneaky' } },
      allTags,
    );
  });
});

describe('feature tags', () => {
  let member: TestUser;
  const featureTags = async (name: string) =>
    (await server.request('GET', `/api/admin/features/${name}/tags`, admin(server))).body.tags;

  beforeAll(async () => {
    await createProject(server, 'alpha');
    await createProject(server, 'beta');
    await createFeature(server, 'tag-me', 'alpha');
    await createFeature(server, 'not-mine', 'beta');
    member = await createUser(server, 3);
    await grantRole(server, member.id, 'alpha');
  });

  it('tags a feature: 201, listed, feature-tagged; a new tag is created with tag-created', async () => {
    const createdBefore = await countEvents(server, 'tag-created');
    const res = await server.request('POST', '/api/admin/features/tag-me/tags', {
      ...admin(server),
      body: { type: 'team', value: 'checkout' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ type: 'team', value: 'checkout' });
    await server.request('POST', '/api/admin/features/tag-me/tags', {
      ...admin(server),
      body: { type: 'team', value: 'payments' },
    });
    const read = await server.request('GET', '/api/admin/features/tag-me/tags', {
      token: callers.viewer.pat,
    });
    expect(read.body).toEqual({
      version: 1,
      tags: [
        { type: 'team', value: 'checkout' },
        { type: 'team', value: 'payments' },
      ],
    });
    expect(await countEvents(server, 'tag-created')).toBe(createdBefore + 1);
    expect((await eventsOf(server, 'feature=tag-me'))[0]).toMatchObject({
      type: 'feature-tagged',
      project: 'alpha',
      data: { type: 'team', value: 'payments' },
    });
    expect(await allTags()).toContainEqual({ type: 'team', value: 'checkout' });
  });

  it('refuses a tag the feature has (409), unknown features and types (404), bad bodies (400)', async () => {
    const url = '/api/admin/features/tag-me/tags';
    const read = () => featureTags('tag-me');
    await expectRefused(
      server,
      409,
      () => server.request('POST', url, { ...admin(server), body: { type: 'team', value: 'checkout' } }),
      read,
    );
    await expectRefused(
      server,
      404,
      () => server.request('POST', url, { ...admin(server), body: { type: 'nope', value: 'checkout' } }),
      read,
    );
    await expectRefused(
      server,
      404,
      () =>
        server.request('POST', '/api/admin/features/nope/tags', {
          ...admin(server),
          body: { value: 'checkout' },
        }),
      read,
    );
    for (const body of [
      {},
      { value: 'x' },
      { value: 'x'.repeat(51) },
      { type: 'x', value: 'okay' },
      { value: ['a', 'b'] },
    ]) {
      await expectRefused(
        server,
        400,
        () => server.request('POST', url, { ...admin(server), body }),
        read,
        JSON.stringify(body),
      );
    }
    expect((await server.request('GET', '/api/admin/features/nope/tags', admin(server))).status).toBe(404);
  });

  it('checks the permission in the feature’s project: a Member of alpha tags alpha’s features, not beta’s', async () => {
    const mine = await server.request('POST', '/api/admin/features/tag-me/tags', {
      token: member.pat,
      body: { value: 'by member' },
    });
    expect(mine.status).toBe(201);
    await expectRefused(
      server,
      403,
      () =>
        server.request('POST', '/api/admin/features/not-mine/tags', {
          token: member.pat,
          body: { value: 'by member' },
        }),
      () => featureTags('not-mine'),
    );
    await expectRefused(
      server,
      403,
      () =>
        server.request('DELETE', '/api/admin/features/not-mine/tags/simple/anything', { token: member.pat }),
      () => featureTags('not-mine'),
    );
    expect(
      (
        await server.request('DELETE', '/api/admin/features/tag-me/tags/simple/by%20member', {
          token: member.pat,
        })
      ).status,
    ).toBe(200);
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url: '/api/admin/features/tag-me/tags', body: { value: 'sneaky' } },
      () => featureTags('tag-me'),
    );
  });

  it('takes a tag off: 200, feature-untagged; 404 when the feature does not have it', async () => {
    const res = await server.request(
      'DELETE',
      '/api/admin/features/tag-me/tags/team/checkout',
      admin(server),
    );
    expect(res.status).toBe(200);
    expect(await featureTags('tag-me')).toEqual([{ type: 'team', value: 'payments' }]);
    expect((await eventsOf(server, 'feature=tag-me'))[0]).toMatchObject({
      type: 'feature-untagged',
      preData: { type: 'team', value: 'checkout' },
    });
    const read = () => featureTags('tag-me');
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/features/tag-me/tags/team/checkout', admin(server)),
      read,
    );
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/features/nope/tags/team/payments', admin(server)),
      read,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'DELETE', url: '/api/admin/features/tag-me/tags/team/payments' },
      read,
    );
  });

  it('deleting a tag takes it off every feature; deleting a type deletes its tags', async () => {
    const res = await server.request('DELETE', '/api/admin/tags/team/payments', admin(server));
    expect(res.status).toBe(200);
    expect(await featureTags('tag-me')).toEqual([]);
    expect((await eventsOf(server, 'type=tag-deleted'))[0]).toMatchObject({
      preData: { type: 'team', value: 'payments' },
    });
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/tags/team/payments', admin(server)),
      allTags,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'DELETE', url: '/api/admin/tags/simple/no%20type%20given' },
      allTags,
    );

    await server.request('POST', '/api/admin/features/tag-me/tags', {
      ...admin(server),
      body: { type: 'team', value: 'again' },
    });
    const gone = await server.request('DELETE', '/api/admin/tag-types/team', admin(server));
    expect(gone.status).toBe(200);
    expect(await featureTags('tag-me')).toEqual([]);
    expect((await allTags()).some((t: { type: string }) => t.type === 'team')).toBe(false);
    expect((await eventsOf(server, 'type=tag-type-deleted'))[0]).toMatchObject({ preData: { name: 'team' } });
    await expectRefused(
      server,
      404,
      () => server.request('DELETE', '/api/admin/tag-types/team', admin(server)),
      tagTypes,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'DELETE', url: '/api/admin/tag-types/simple' },
      tagTypes,
    );
  });
});
