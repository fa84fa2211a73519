import { describe, expect, it } from 'vitest';
import { CLIENT_TOKEN, expectRefused, lastEvent, makeFeature } from '../../../test/feature-model.js';
import { countEvents, writeDirectly } from '../../../test/server.js';
import { callers, put, read, server, url, useVariantsFixture } from '../../../test/variants.js';

useVariantsFixture();

describe('E18 GET …/environments/:environment/variants', () => {
  it('answers { version: 1, variants: [] } for a feature without variants, to any user', async () => {
    for (const token of [server.adminToken, callers.editor, callers.viewer]) {
      const res = await server.request('GET', url('colors'), { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ version: 1, variants: [] });
    }
  });

  it('answers 404 for an unknown feature, another project, or an unknown environment', async () => {
    const get = (path: string) => server.request('GET', path, { token: server.adminToken });
    expect((await get(url('nope'))).status).toBe(404);
    expect((await get(url('colors', 'development', 'other'))).status).toBe(404);
    expect((await get(url('colors', 'development', 'nope'))).status).toBe(404);
    const env = await get(url('colors', 'staging'));
    expect(env.status).toBe(404);
    expect(env.body.name).toBe('NotFoundError');
  });

  it('answers 403 to client tokens and 401 without a token', async () => {
    expect((await server.request('GET', url('colors'), { token: CLIENT_TOKEN })).status).toBe(403);
    expect((await server.request('GET', url('colors'))).status).toBe(401);
  });
});

describe('PUT …/variants', () => {
  it('stores the fixed, sorted list: 200 { version: 1, variants }, read back by E18, one event', async () => {
    const events = await countEvents(server, 'feature-environment-variants-updated');
    const res = await put(
      [
        { name: 'charlie', weight: 0, weightType: 'variable', stickiness: 'default' },
        {
          name: 'alpha',
          weight: 5,
          weightType: 'variable',
          stickiness: 'userId',
          payload: { type: 'json', value: '{"a":1}' },
        },
        {
          name: 'bravo',
          weight: 0,
          weightType: 'variable',
          stickiness: 'default',
          overrides: [{ contextName: 'userId', values: ['1', '2'] }],
        },
        {
          name: 'fixed',
          weight: 200,
          weightType: 'fix',
          stickiness: 'default',
          payload: { type: 'csv', value: 'a,b' },
        },
      ],
      callers.editor,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1,
      variants: [
        {
          name: 'alpha',
          weight: 267,
          weightType: 'variable',
          stickiness: 'userId',
          payload: { type: 'json', value: '{"a":1}' },
        },
        {
          name: 'bravo',
          weight: 267,
          weightType: 'variable',
          stickiness: 'default',
          overrides: [{ contextName: 'userId', values: ['1', '2'] }],
        },
        { name: 'charlie', weight: 266, weightType: 'variable', stickiness: 'default' },
        {
          name: 'fixed',
          weight: 200,
          weightType: 'fix',
          stickiness: 'default',
          payload: { type: 'csv', value: 'a,b' },
        },
      ],
    });
    expect(await read()).toEqual(res.body);
    expect(await read('colors', 'production')).toEqual({ version: 1, variants: [] });
    const feature = await server.request('GET', '/api/admin/projects/default/features/colors', {
      token: server.adminToken,
    });
    expect(feature.body.environments[0].variants).toEqual(res.body.variants);
    expect(await countEvents(server, 'feature-environment-variants-updated')).toBe(events + 1);
    const event = await lastEvent(server, 'feature-environment-variants-updated');
    expect(event).toMatchObject({
      featureName: 'colors',
      project: 'default',
      environment: 'development',
      data: { variants: res.body.variants },
      preData: { variants: [] },
    });
  });

  it('fills in weightType and stickiness, accepts string and number payloads, and clears with []', async () => {
    const res = await put(
      [
        { name: 'a', weight: 100, payload: { type: 'number', value: '42' } },
        { name: 'b', weight: 100, payload: { type: 'string', value: 'hello' } },
      ],
      server.adminToken,
      'shapes',
    );
    expect(res.status).toBe(200);
    expect(res.body.variants).toEqual([
      {
        name: 'a',
        weight: 500,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'number', value: '42' },
      },
      {
        name: 'b',
        weight: 500,
        weightType: 'variable',
        stickiness: 'default',
        payload: { type: 'string', value: 'hello' },
      },
    ]);
    const cleared = await put([], server.adminToken, 'shapes');
    expect(cleared.body).toEqual({ version: 1, variants: [] });
    expect((await lastEvent(server, 'feature-environment-variants-updated')).preData.variants).toHaveLength(
      2,
    );
  });

  it('refuses every kind of bad input with 400 and changes nothing', async () => {
    const ok = { name: 'ok', weight: 100, weightType: 'variable', stickiness: 'default' };
    const bad: unknown[] = [
      { variants: [ok] },
      'ok',
      [{ weight: 100 }],
      [{ name: 'x' }],
      [{ ...ok, name: 'has space' }],
      [{ ...ok, name: 'x'.repeat(101) }],
      [{ ...ok, weight: 1001 }],
      [{ ...ok, weight: -1 }],
      [{ ...ok, weight: 10.5 }],
      [{ ...ok, weight: '100' }],
      [{ ...ok, weightType: 'fixed' }],
      [{ ...ok, stickiness: 5 }],
      [{ ...ok, extra: true }],
      [{ ...ok, payload: { type: 'xml', value: '<a/>' } }],
      [{ ...ok, payload: { type: 'json', value: '{not json' } }],
      [{ ...ok, payload: { type: 'number', value: 'many' } }],
      [{ ...ok, payload: { type: 'string' } }],
      [{ ...ok, payload: { type: 'string', value: 1 } }],
      [{ ...ok, overrides: [{ contextName: 'userId' }] }],
      [{ ...ok, overrides: [{ contextName: 'userId', values: 'a' }] }],
      [ok, { ...ok }],
      [{ ...ok, weightType: 'fix' }],
      [
        ok,
        { ...ok, name: 'f1', weightType: 'fix', weight: 600 },
        { ...ok, name: 'f2', weightType: 'fix', weight: 401 },
      ],
    ];
    for (const body of bad)
      await expectRefused(
        server,
        () => read(),
        () => put(body),
        400,
        JSON.stringify(body),
      );
  });

  it('answers 404 for unknown features and environments, 403 to Viewers and client tokens, 401, 415', async () => {
    const body = [{ name: 'v', weight: 1 }];
    await expectRefused(
      server,
      () => read(),
      () => put(body, server.adminToken, 'nope'),
      404,
    );
    await expectRefused(
      server,
      () => read(),
      () => put(body, server.adminToken, 'colors', 'staging'),
      404,
    );
    await expectRefused(
      server,
      () => read(),
      () => server.request('PUT', url('colors', 'development', 'other'), { token: server.adminToken, body }),
      404,
    );
    await expectRefused(
      server,
      () => read(),
      () => put(body, callers.viewer),
      403,
    );
    await expectRefused(
      server,
      () => read(),
      () => put('x', callers.viewer, 'colors', 'development', 'text/plain'),
      403,
    );
    await expectRefused(
      server,
      () => read(),
      () => put(body, CLIENT_TOKEN),
      403,
    );
    await expectRefused(
      server,
      () => read(),
      () => server.request('PUT', url('colors'), { body }),
      401,
    );
    await expectRefused(
      server,
      () => read(),
      () => put(JSON.stringify(body), server.adminToken, 'colors', 'development', 'text/plain'),
      415,
    );
  });

  it('keeps the variants of an archived feature readable through E18', async () => {
    await makeFeature(server, 'to-archive');
    await put([{ name: 'kept', weight: 1 }], server.adminToken, 'to-archive');
    await writeDirectly(server, 'UPDATE features SET archived_at = now() WHERE name = $1', ['to-archive']);
    const res = await server.request('GET', url('to-archive'), { token: callers.viewer });
    expect(res.status).toBe(200);
    expect(res.body.variants).toMatchObject([{ name: 'kept', weight: 1000 }]);
    expect((await put([], server.adminToken, 'to-archive')).status).toBe(404);
  });
});
