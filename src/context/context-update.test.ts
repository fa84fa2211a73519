import { describe, expect, it } from 'vitest';
import {
  CLIENT_TOKEN,
  callers,
  contextField,
  contextFields,
  expectRefused,
  lastEvent,
  server,
  useFeatureModelServer,
} from '../../test/feature-model.js';
import { admin } from '../../test/requests.js';
import { countEvents } from '../../test/server.js';

useFeatureModelServer();

describe('E15 PUT /api/admin/context/:contextField', () => {
  const put = (name: string, body: unknown, token = server.adminToken, contentType?: string) =>
    server.request('PUT', `/api/admin/context/${name}`, { token, body, contentType });

  it('replaces legal values and stickiness, keeps the description when omitted: 200, no body, one event', async () => {
    await server.request('POST', '/api/admin/context', {
      ...admin(server),
      body: {
        name: 'plan',
        description: 'Billing plan',
        stickiness: true,
        sortOrder: 7,
        legalValues: [{ value: 'free' }],
      },
    });
    const before = await contextField('plan');
    const events = await countEvents(server, 'context-field-updated');
    const res = await put('plan', {
      legalValues: [{ value: 'pro', description: 'Paying' }, { value: 'team' }],
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const after = await contextField('plan');
    expect(after).toEqual({
      ...before,
      stickiness: false,
      legalValues: [{ value: 'pro', description: 'Paying' }, { value: 'team' }],
    });
    expect((await contextFields()).find((f: { name: string }) => f.name === 'plan')).toEqual(after);
    expect(await countEvents(server, 'context-field-updated')).toBe(events + 1);
    const event = await lastEvent(server, 'context-field-updated');
    expect(event.preData).toMatchObject({ name: 'plan', stickiness: true, legalValues: [{ value: 'free' }] });
    expect(event.data).toMatchObject({
      name: 'plan',
      stickiness: false,
      legalValues: [{ value: 'pro' }, { value: 'team' }],
    });
  });

  it('changes the description, stickiness and sort order when sent; omitted legal values become none', async () => {
    const res = await put('plan', { description: 'New', stickiness: true, sortOrder: 2 }, callers.editor);
    expect(res.status).toBe(200);
    expect(await contextField('plan')).toMatchObject({
      description: 'New',
      stickiness: true,
      sortOrder: 2,
      legalValues: [],
    });
    expect((await put('plan', {})).status).toBe(200);
    expect(await contextField('plan')).toMatchObject({ description: 'New', stickiness: false, sortOrder: 2 });
  });

  it('ignores a name in the body: the field keeps its name', async () => {
    expect((await put('plan', { name: 'renamed', description: 'Kept name' })).status).toBe(200);
    expect((await contextField('plan')).description).toBe('Kept name');
    expect((await server.request('GET', '/api/admin/context/renamed', admin(server))).status).toBe(404);
  });

  it('checks the body first (400), then that the field exists (404)', async () => {
    const bad: unknown[] = [
      { description: 'd'.repeat(251) },
      { description: 5 },
      { stickiness: 'true' },
      { sortOrder: 'abc' },
      { legalValues: 'a' },
      { legalValues: [{ value: '' }] },
      { legalValues: [{ value: 'v'.repeat(101) }] },
      { legalValues: [{ value: 'a', label: 'x' }] },
      { legalValues: [{ value: 'a' }, { value: 'a' }] },
      { legalValues: [{}] },
      [],
    ];
    for (const body of bad) {
      await expectRefused(server, contextFields, () => put('plan', body), 400, JSON.stringify(body));
      await expectRefused(server, contextFields, () => put('unknown-field', body), 400, JSON.stringify(body));
    }
    const missing = await expectRefused(
      server,
      contextFields,
      () => put('unknown-field', { stickiness: true }),
      404,
    );
    expect(missing.body.message).toContain('"unknown-field"');
  });

  it('is refused to Viewers and client tokens (403, even with a text body), without a token (401), and to text (415)', async () => {
    await expectRefused(server, contextFields, () => put('plan', { stickiness: true }, callers.viewer), 403);
    await expectRefused(server, contextFields, () => put('plan', 'x', callers.viewer, 'text/plain'), 403);
    await expectRefused(server, contextFields, () => put('plan', { stickiness: true }, CLIENT_TOKEN), 403);
    await expectRefused(
      server,
      contextFields,
      () => server.request('PUT', '/api/admin/context/plan', { body: { stickiness: true } }),
      401,
    );
    await expectRefused(
      server,
      contextFields,
      () => put('plan', '{"stickiness":true}', server.adminToken, 'text/plain'),
      415,
    );
  });

  it('applies to seeded fields too', async () => {
    expect((await put('appName', { legalValues: [{ value: 'web' }], description: 'App' })).status).toBe(200);
    expect(await contextField('appName')).toMatchObject({
      legalValues: [{ value: 'web' }],
      description: 'App',
      sortOrder: 2,
    });
    expect((await put('appName', { description: 'The name of the application' })).status).toBe(200);
  });
});

describe('legal values one at a time', () => {
  const path = (name: string) => `/api/admin/context/${name}/legal-values`;

  it('adds a value, changes its description, removes it; each an event', async () => {
    await put('plan', { legalValues: [{ value: 'free' }] });
    const events = await countEvents(server, 'context-field-updated');
    expect(
      (await server.request('POST', path('plan'), { ...admin(server), body: { value: 'pro' } })).status,
    ).toBe(200);
    expect((await contextField('plan')).legalValues).toEqual([{ value: 'free' }, { value: 'pro' }]);
    const described = await server.request('POST', path('plan'), {
      token: callers.editor,
      body: { value: 'free', description: 'No charge' },
    });
    expect(described.status).toBe(200);
    expect((await contextField('plan')).legalValues).toEqual([
      { value: 'free', description: 'No charge' },
      { value: 'pro' },
    ]);
    expect((await server.request('DELETE', `${path('plan')}/free`, admin(server))).status).toBe(200);
    expect((await contextField('plan')).legalValues).toEqual([{ value: 'pro' }]);
    expect(await countEvents(server, 'context-field-updated')).toBe(events + 3);
  });

  it('refuses bad values (400), unknown fields and values (404), Viewers (403)', async () => {
    const post = (name: string, body: unknown, token = server.adminToken) =>
      server.request('POST', path(name), { token, body });
    for (const body of [
      {},
      { value: '' },
      { value: 'v'.repeat(101) },
      { value: 'a', extra: 1 },
      { value: 1 },
    ]) {
      await expectRefused(server, contextFields, () => post('plan', body), 400, JSON.stringify(body));
    }
    await expectRefused(server, contextFields, () => post('nope', { value: 'a' }), 404);
    await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', `${path('nope')}/a`, admin(server)),
      404,
    );
    await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', `${path('plan')}/missing`, admin(server)),
      404,
    );
    await expectRefused(server, contextFields, () => post('plan', { value: 'a' }, callers.viewer), 403);
    await expectRefused(
      server,
      contextFields,
      () => server.request('DELETE', `${path('plan')}/pro`, { token: callers.viewer }),
      403,
    );
    await expectRefused(
      server,
      contextFields,
      () =>
        server.request('POST', path('plan'), {
          ...admin(server),
          body: '{"value":"a"}',
          contentType: 'text/plain',
        }),
      415,
    );
  });
});

function put(name: string, body: unknown) {
  return server.request('PUT', `/api/admin/context/${name}`, { token: server.adminToken, body });
}
