import { describe, expect, it } from 'vitest';
import { asAdmin, eventsAbout, expectStatus, projectMember } from '../../../test/feature-ops.js';
import {
  callers,
  createFeature,
  createProject,
  expectCallerRefusals,
  expectRefused,
  readFeature,
  server,
  useFeatureServer,
} from '../../../test/features.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
  await createFeature(server, 'linked');
});

const LINK = '/api/admin/projects/default/features/linked/link';
const links = async (name = 'linked') => (await readFeature(server, name)).body.links;

describe('feature links', () => {
  it('adds links (204), shown in the feature with their ids; a scheme-less address becomes https', async () => {
    const res = await expectStatus(server, 204, 'POST', LINK, {
      url: 'https://example.com/ticket/1',
      title: 'Ticket',
    });
    expect(res.text).toBe('');
    await expectStatus(server, 204, 'POST', LINK, { url: 'wiki.example.com/page' });
    expect(await links()).toEqual([
      { id: expect.any(String), url: 'https://example.com/ticket/1', title: 'Ticket', feature: 'linked' },
      { id: expect.any(String), url: 'https://wiki.example.com/page', title: null, feature: 'linked' },
    ]);
    const [event] = await eventsAbout(server, 'linked', 'feature-link-added');
    expect(event).toMatchObject({
      project: 'default',
      data: { url: 'https://wiki.example.com/page', title: null },
    });
  });

  it('changes a link: the address, and the title when sent; an unchanged one records nothing', async () => {
    const [first] = await links();
    await expectStatus(server, 204, 'PUT', `${LINK}/${first.id}`, { url: 'http://example.com/ticket/2' });
    expect((await links())[0]).toEqual({ ...first, url: 'http://example.com/ticket/2' });
    const [event] = await eventsAbout(server, 'linked', 'feature-link-updated');
    expect(event).toMatchObject({
      data: { url: 'http://example.com/ticket/2', title: 'Ticket' },
      preData: { url: 'https://example.com/ticket/1', title: 'Ticket' },
    });
    await expectStatus(server, 204, 'PUT', `${LINK}/${first.id}`, {
      url: 'http://example.com/ticket/2',
      title: null,
    });
    expect((await links())[0].title).toBeNull();
    const count = (await eventsAbout(server, 'linked', 'feature-link-updated')).length;
    await expectStatus(server, 204, 'PUT', `${LINK}/${first.id}`, { url: 'http://example.com/ticket/2' });
    expect(await eventsAbout(server, 'linked', 'feature-link-updated')).toHaveLength(count);
  });

  it('removes a link, with its event; the path must name the link’s own feature', async () => {
    await createFeature(server, 'other-linked');
    await expectStatus(server, 204, 'POST', '/api/admin/projects/default/features/other-linked/link', {
      url: 'https://example.com/x',
    });
    const [foreign] = await links('other-linked');
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'DELETE', `${LINK}/${foreign.id}`),
      () => links('other-linked'),
    );
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'PUT', `${LINK}/${foreign.id}`, { url: 'https://example.com/y' }),
      () => links('other-linked'),
    );
    const [, second] = await links();
    await expectStatus(server, 204, 'DELETE', `${LINK}/${second.id}`);
    expect((await links()).map((l: { id: string }) => l.id)).not.toContain(second.id);
    const [event] = await eventsAbout(server, 'linked', 'feature-link-removed');
    expect(event).toMatchObject({ preData: { url: 'https://wiki.example.com/page' }, data: null });
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'DELETE', `${LINK}/${second.id}`),
      () => links(),
    );
  });

  it('refuses addresses that are not http(s) and bad bodies with 400', async () => {
    for (const body of [
      { url: 'javascript:alert(1)' },
      { url: 'ftp://example.com/file' },
      { url: 'data:text/html,hi' },
      { url: 'not a url' },
      { url: '' },
      { title: 'no url' },
      { url: 'https://example.com', title: 5 },
      { url: `https://example.com/${'a'.repeat(2000)}` },
    ]) {
      const res = await expectRefused(
        server,
        400,
        () => asAdmin(server, 'POST', LINK, body),
        () => links(),
      );
      expect(res.body.name).toBe('ValidationError');
    }
  });

  it('keeps at most 10 links per feature (409)', async () => {
    await createFeature(server, 'many-links');
    const url = '/api/admin/projects/default/features/many-links/link';
    for (let i = 0; i < 10; i++)
      await expectStatus(server, 204, 'POST', url, { url: `https://example.com/${i}` });
    await expectRefused(
      server,
      409,
      () => asAdmin(server, 'POST', url, { url: 'https://example.com/11' }),
      () => links('many-links'),
    );
  });

  it('answers 404 for unknown, archived or misplaced features and unknown links', async () => {
    await createFeature(server, 'archived-link');
    await expectStatus(server, 202, 'DELETE', '/api/admin/projects/default/features/archived-link');
    const read = () => links();
    for (const url of [
      '/api/admin/projects/default/features/ghost/link',
      '/api/admin/projects/default/features/archived-link/link',
      '/api/admin/projects/other/features/linked/link',
    ]) {
      await expectRefused(
        server,
        404,
        () => asAdmin(server, 'POST', url, { url: 'https://example.com' }),
        read,
      );
    }
    await expectRefused(
      server,
      404,
      () => asAdmin(server, 'PUT', `${LINK}/nope`, { url: 'https://example.com' }),
      read,
    );
  });

  it('refuses callers without UPDATE_FEATURE in the project, client tokens and missing credentials', async () => {
    const [first] = await links();
    const read = () => links();
    await expectCallerRefusals(
      server,
      callers,
      { method: 'POST', url: LINK, body: { url: 'https://e.com' } },
      read,
    );
    await expectCallerRefusals(
      server,
      callers,
      { method: 'PUT', url: `${LINK}/${first.id}`, body: { url: 'https://e.com' } },
      read,
    );
    await expectCallerRefusals(server, callers, { method: 'DELETE', url: `${LINK}/${first.id}` }, read);
    const member = await projectMember(server, 'default', ['CREATE_FEATURE']);
    await expectRefused(
      server,
      403,
      () => server.request('POST', LINK, { token: member.pat, body: { url: 'https://e.com' } }),
      read,
    );
    const allowed = await projectMember(server, 'default', ['UPDATE_FEATURE']);
    const res = await server.request('POST', LINK, { token: allowed.pat, body: { url: 'https://e.com' } });
    expect(res.status).toBe(204);
  });
});
