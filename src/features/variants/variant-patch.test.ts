import { describe, expect, it } from 'vitest';
import { CLIENT_TOKEN, expectRefused, lastEvent } from '../../../test/feature-model.js';
import { countEvents } from '../../../test/server.js';
import { callers, put, read, server, url, useVariantsFixture } from '../../../test/variants.js';

useVariantsFixture();

describe('PATCH …/variants', () => {
  const patch = (body: unknown, token = server.adminToken, contentType?: string) =>
    server.request('PATCH', url('colors'), { token, body, contentType });

  it('applies JSON Patch to the list and fixes the weights again', async () => {
    await put([
      { name: 'a', weight: 0 },
      { name: 'b', weight: 0 },
    ]);
    const events = await countEvents(server, 'feature-environment-variants-updated');
    const res = await patch(
      [
        {
          op: 'add',
          path: '/-',
          value: { name: 'c', weight: 0, weightType: 'variable', stickiness: 'default' },
        },
        { op: 'replace', path: '/0/stickiness', value: 'sessionId' },
        { op: 'test', path: '/1/name', value: 'b' },
      ],
      callers.editor,
    );
    expect(res.status).toBe(200);
    expect(res.body.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([
      ['a', 334],
      ['b', 333],
      ['c', 333],
    ]);
    expect(res.body.variants[0].stickiness).toBe('sessionId');
    expect(await read()).toEqual(res.body);
    expect(await countEvents(server, 'feature-environment-variants-updated')).toBe(events + 1);
    expect((await lastEvent(server, 'feature-environment-variants-updated')).preData.variants).toHaveLength(
      2,
    );
  });

  it('refuses bad patches and bad results with 400, and Viewers with 403', async () => {
    const bad: unknown[] = [
      { op: 'add', path: '/-' },
      [{ op: 'jump', path: '/0' }],
      [{ path: '/0' }],
      [{ op: 'remove' }],
      [{ op: 'test', path: '/0/name', value: 'zzz' }],
      [{ op: 'replace', path: '/7/name', value: 'x' }],
      [{ op: 'replace', path: '/0/weight', value: 5000 }],
      [{ op: 'add', path: '/0/color', value: 'red' }],
      [{ op: 'replace', path: '/1/name', value: 'a' }],
      [{ op: 'replace', path: '', value: { not: 'a list' } }],
      [
        { op: 'replace', path: '/0/weightType', value: 'fix' },
        { op: 'replace', path: '/1/weightType', value: 'fix' },
        { op: 'replace', path: '/2/weightType', value: 'fix' },
      ],
    ];
    for (const body of bad)
      await expectRefused(
        server,
        () => read(),
        () => patch(body),
        400,
        JSON.stringify(body),
      );
    await expectRefused(
      server,
      () => read(),
      () => patch([], callers.viewer),
      403,
    );
    await expectRefused(
      server,
      () => read(),
      () => patch([], CLIENT_TOKEN),
      403,
    );
    await expectRefused(
      server,
      () => read(),
      () => patch('[]', server.adminToken, 'text/plain'),
      415,
    );
    await expectRefused(
      server,
      () => read(),
      () => server.request('PATCH', url('nope'), { token: server.adminToken, body: [] }),
      404,
    );
  });
});
