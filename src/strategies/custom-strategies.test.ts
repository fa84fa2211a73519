import { describe, expect, it } from 'vitest';
import {
  addStrategy,
  CLIENT_TOKEN,
  callers,
  environmentPath,
  expectRefused,
  lastEvent,
  makeFeature,
  readFeature,
  server,
  useFeatureModelServer,
} from '../../test/feature-model.js';
import { admin } from '../../test/requests.js';
import { countEvents } from '../../test/server.js';

useFeatureModelServer();

const read = (name: string) => server.request('GET', `/api/admin/strategies/${name}`, admin(server));
const list = async () => (await server.request('GET', '/api/admin/strategies', admin(server))).body;

const create = (body: Record<string, unknown>, token = server.adminToken) =>
  server.request('POST', '/api/admin/strategies', { token, body });

const PARAMETERS = [
  { name: 'tenants', type: 'list', description: 'Tenants the flag is on for', required: true },
  { name: 'limit', type: 'number', required: false },
  { name: 'share', type: 'percentage' },
  { name: 'beta', type: 'boolean', required: false },
];

describe('custom strategy types', () => {
  it('creates, reads, updates, deprecates, reactivates and deletes one, with its events', async () => {
    const res = await create({
      name: 'tenant',
      title: 'Tenants',
      description: 'On for the listed tenants',
      parameters: PARAMETERS,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe('strategies/tenant');
    const expected = {
      name: 'tenant',
      title: 'Tenants',
      description: 'On for the listed tenants',
      editable: true,
      deprecated: false,
      parameters: [
        { name: 'tenants', type: 'list', description: 'Tenants the flag is on for', required: true },
        { name: 'limit', type: 'number', description: '', required: false },
        { name: 'share', type: 'percentage', description: '', required: false },
        { name: 'beta', type: 'boolean', description: '', required: false },
      ],
    };
    expect(res.body).toMatchObject(expected);
    expect((await read('tenant')).body).toMatchObject(expected);
    // listed after the built-in ones
    expect((await list()).strategies.map((s: { name: string }) => s.name).at(-1)).toBe('tenant');
    expect(await lastEvent(server, 'strategy-created')).toMatchObject({
      createdBy: 'admin',
      data: { name: 'tenant', title: 'Tenants', editable: true, deprecated: false },
    });

    // PUT: parameters replaced; title kept when not sent; the body's name is not a rename
    const put = await server.request('PUT', '/api/admin/strategies/tenant', {
      ...admin(server),
      body: { name: 'other', description: 'Tenants only', parameters: [{ name: 'tenants', type: 'list' }] },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.text).toBe('');
    expect((await read('tenant')).body).toMatchObject({
      title: 'Tenants',
      description: 'Tenants only',
      parameters: [{ name: 'tenants', type: 'list', description: '', required: false }],
    });
    expect((await read('other')).status).toBe(404);
    const updated = await lastEvent(server, 'strategy-updated');
    expect(updated.data.parameters).toHaveLength(1);
    expect(updated.preData.parameters).toHaveLength(4);

    for (const [action, deprecated, type] of [
      ['deprecate', true, 'strategy-deprecated'],
      ['deprecate', true, 'strategy-deprecated'],
      ['reactivate', false, 'strategy-reactivated'],
    ] as const) {
      const before = await countEvents(server, type);
      const r = await server.request('POST', `/api/admin/strategies/tenant/${action}`, admin(server));
      expect(r.status, r.text).toBe(200);
      expect((await read('tenant')).body.deprecated).toBe(deprecated);
      expect(await countEvents(server, type)).toBe(before + 1);
      expect((await lastEvent(server, type)).data).toEqual({ name: 'tenant' });
    }

    const del = await server.request('DELETE', '/api/admin/strategies/tenant', admin(server));
    expect(del.status, del.text).toBe(200);
    expect((await read('tenant')).status).toBe(404);
    expect(await lastEvent(server, 'strategy-deleted')).toMatchObject({
      data: { name: 'tenant' },
      preData: { name: 'tenant', title: 'Tenants' },
    });
  });

  it('may deprecate a built-in type, but never change or delete one', async () => {
    expect(
      (await server.request('POST', '/api/admin/strategies/userWithId/deprecate', admin(server))).status,
    ).toBe(200);
    expect((await read('userWithId')).body.deprecated).toBe(true);
    expect(
      (await server.request('POST', '/api/admin/strategies/userWithId/reactivate', admin(server))).status,
    ).toBe(200);
    expect((await read('userWithId')).body.deprecated).toBe(false);

    const readDefault = async () => (await read('default')).body;
    const put = await expectRefused(
      server,
      readDefault,
      () =>
        server.request('PUT', '/api/admin/strategies/default', {
          ...admin(server),
          body: { parameters: [{ name: 'x', type: 'string' }] },
        }),
      403,
    );
    expect(put.body.message).toContain('built in');
    await expectRefused(
      server,
      readDefault,
      () => server.request('DELETE', '/api/admin/strategies/default', admin(server)),
      403,
    );
    await expectRefused(
      server,
      list,
      () => create({ name: 'flexibleRollout', parameters: [] }),
      409,
      'a built-in name',
    );
  });

  it('answers 404 for unknown types, 409 for a taken name, 400 for bad definitions', async () => {
    for (const [method, path, body] of [
      ['PUT', '/api/admin/strategies/nope', { parameters: [] }],
      ['DELETE', '/api/admin/strategies/nope', undefined],
      ['POST', '/api/admin/strategies/nope/deprecate', undefined],
      ['POST', '/api/admin/strategies/nope/reactivate', undefined],
    ] as const) {
      await expectRefused(
        server,
        list,
        () => server.request(method, path, { ...admin(server), body }),
        404,
        path,
      );
    }

    expect((await create({ name: 'region', parameters: [] })).status).toBe(201);
    const taken = await expectRefused(server, list, () => create({ name: 'region', parameters: [] }), 409);
    expect(taken.body.message).toContain('region');

    const bad: [string, Record<string, unknown>, string][] = [
      ['no parameters', { name: 'x1' }, 'parameters'],
      ['unknown type', { name: 'x2', parameters: [{ name: 'a', type: 'date' }] }, 'parameters.0.type'],
      ['no parameter name', { name: 'x3', parameters: [{ type: 'string' }] }, 'parameters.0.name'],
      [
        'empty parameter name',
        { name: 'x4', parameters: [{ name: '', type: 'string' }] },
        'parameters.0.name',
      ],
      [
        'duplicate parameter names',
        {
          name: 'x5',
          parameters: [
            { name: 'a', type: 'string' },
            { name: 'a', type: 'number' },
          ],
        },
        'parameters.1.name',
      ],
      ['name not URL friendly', { name: 'two words', parameters: [] }, 'name'],
      ['empty name', { name: '', parameters: [] }, 'name'],
      [
        'required not a boolean',
        { name: 'x6', parameters: [{ name: 'a', type: 'string', required: 'yes' }] },
        'parameters.0.required',
      ],
    ];
    for (const [label, body, path] of bad) {
      const res = await expectRefused(server, list, () => create(body), 400, label);
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        label,
      ).toContain(path);
    }
    const put = await expectRefused(
      server,
      list,
      () =>
        server.request('PUT', '/api/admin/strategies/region', {
          ...admin(server),
          body: { description: 'x' },
        }),
      400,
    );
    expect(put.body.details[0].path).toBe('parameters');
    await expectRefused(
      server,
      list,
      () =>
        server.request('POST', '/api/admin/strategies', {
          ...admin(server),
          body: 'name=x',
          contentType: 'text/plain',
        }),
      415,
    );
  });

  it('is for Admins: 401 without credentials, 403 for Editors, Viewers and client tokens', async () => {
    expect((await create({ name: 'guarded', parameters: [] })).status).toBe(201);
    const writes = [
      ['POST', '/api/admin/strategies', { name: 'guarded-2', parameters: [] }],
      ['PUT', '/api/admin/strategies/guarded', { parameters: [] }],
      ['DELETE', '/api/admin/strategies/guarded', undefined],
      ['POST', '/api/admin/strategies/guarded/deprecate', undefined],
      ['POST', '/api/admin/strategies/guarded/reactivate', undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      await expectRefused(server, list, () => server.request(method, path, { body }), 401, path);
      for (const token of [callers.editor, callers.viewer, CLIENT_TOKEN]) {
        await expectRefused(server, list, () => server.request(method, path, { token, body }), 403, path);
      }
    }
    // reading stays open to every user
    expect(
      (await server.request('GET', '/api/admin/strategies/guarded', { token: callers.viewer })).status,
    ).toBe(200);
  });
});

describe('feature strategies of a custom type', () => {
  it('checks the declared parameters, and is served to SDKs as stored', async () => {
    expect((await create({ name: 'cohort', parameters: PARAMETERS })).status).toBe(201);
    await makeFeature(server, 'cohort-flag');
    const strategies = `${environmentPath('cohort-flag')}/strategies`;
    const readFlag = () => readFeature(server, 'cohort-flag');

    const missing = await expectRefused(
      server,
      readFlag,
      () =>
        server.request('POST', strategies, {
          ...admin(server),
          body: { name: 'cohort', parameters: { limit: '3' } },
        }),
      400,
      'missing required',
    );
    expect(missing.body.details).toEqual([
      { path: 'parameters.tenants', message: expect.stringContaining('required') },
    ]);
    for (const [name, value] of [
      ['limit', 'three'],
      ['share', '101'],
      ['share', '-5'],
      ['beta', 'yes'],
    ]) {
      const res = await expectRefused(
        server,
        readFlag,
        () =>
          server.request('POST', strategies, {
            ...admin(server),
            body: { name: 'cohort', parameters: { tenants: 'a', [name as string]: value } },
          }),
        400,
        `${name}=${value}`,
      );
      expect(res.body.details[0].path).toBe(`parameters.${name}`);
    }

    const added = await addStrategy(server, 'cohort-flag', {
      name: 'cohort',
      parameters: { tenants: 'acme,globex', limit: 7, share: '12.5', beta: true, extra: 'kept' },
    });
    expect(added.parameters).toEqual({
      tenants: 'acme,globex',
      limit: '7',
      share: '12.5',
      beta: 'true',
      extra: 'kept',
    });

    // PUT and PATCH of the strategy are held to the same rules
    await expectRefused(
      server,
      readFlag,
      () =>
        server.request('PUT', `${strategies}/${added.id}`, {
          ...admin(server),
          body: { name: 'cohort', parameters: { tenants: '' } },
        }),
      400,
      'PUT empty required',
    );
    await expectRefused(
      server,
      readFlag,
      () =>
        server.request('PATCH', `${strategies}/${added.id}`, {
          ...admin(server),
          body: [{ op: 'remove', path: '/parameters/tenants' }],
        }),
      400,
      'PATCH removes required',
    );

    // built-in types keep their own rules: remoteAddress declares IPs required but never asked for it
    await addStrategy(server, 'cohort-flag', { name: 'remoteAddress', parameters: {} });
    // an unknown type is still refused as before
    const unknown = await server.request('POST', strategies, {
      ...admin(server),
      body: { name: 'nothing-here' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].path).toBe('name');

    expect((await server.request('POST', `${environmentPath('cohort-flag')}/on`, admin(server))).status).toBe(
      200,
    );
    const client = await server.request('GET', '/api/client/features', { token: CLIENT_TOKEN });
    expect(client.status).toBe(200);
    const served = client.body.features.find((f: { name: string }) => f.name === 'cohort-flag');
    expect(served.enabled).toBe(true);
    expect(served.strategies[0]).toMatchObject({
      name: 'cohort',
      parameters: { tenants: 'acme,globex', limit: '7', share: '12.5', beta: 'true', extra: 'kept' },
    });

    // a deprecated type keeps working and may still be chosen (as in Unleash)
    expect(
      (await server.request('POST', '/api/admin/strategies/cohort/deprecate', admin(server))).status,
    ).toBe(200);
    await addStrategy(server, 'cohort-flag', { name: 'cohort', parameters: { tenants: 'initech' } });

    // in use: deleting it is refused, naming the feature
    const del = await server.request('DELETE', '/api/admin/strategies/cohort', admin(server));
    expect(del.status, del.text).toBe(409);
    expect(del.body.message).toContain('cohort-flag');
    expect((await read('cohort')).status).toBe(200);
  });

  it('travels through the state export and import', async () => {
    expect(
      (
        await create({
          name: 'exported',
          title: null,
          parameters: [{ name: 'n', type: 'number', required: true }],
        })
      ).status,
    ).toBe(201);
    const exported = await server.request('GET', '/api/admin/state/export', admin(server));
    expect(exported.status).toBe(200);
    const type = exported.body.strategies.find((s: { name: string }) => s.name === 'exported');
    expect(type).toMatchObject({
      title: null,
      editable: true,
      parameters: [{ name: 'n', type: 'number', required: true }],
    });

    // into a type that is not there yet: the document's definition, then its strategies checked against it
    const imported = await server.request('POST', '/api/admin/state/import', {
      ...admin(server),
      body: {
        version: 4,
        strategies: [{ ...type, name: 'imported-type' }],
        features: [{ name: 'imported-flag' }],
        featureStrategies: [
          {
            featureName: 'imported-flag',
            environment: 'development',
            name: 'imported-type',
            parameters: { n: 'x' },
          },
        ],
      },
    });
    expect(imported.status, imported.text).toBe(400);
    expect((await read('imported-type')).status).toBe(404);
    const ok = await server.request('POST', '/api/admin/state/import', {
      ...admin(server),
      body: {
        version: 4,
        strategies: [{ ...type, name: 'imported-type' }],
        features: [{ name: 'imported-flag' }],
        featureStrategies: [
          {
            featureName: 'imported-flag',
            environment: 'development',
            name: 'imported-type',
            parameters: { n: '4' },
          },
        ],
      },
    });
    expect(ok.status, ok.text).toBe(202);
    expect((await read('imported-type')).body).toMatchObject({ title: null, parameters: type.parameters });
  });
});
