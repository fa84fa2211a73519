import { describe, expect, it } from 'vitest';
import { adminCalls } from '../../test/batch.js';
import { CLIENT_TOKEN, callers, grantRole, server, useFeatureServer } from '../../test/features.js';
import { countEvents, createUser, type Reply } from '../../test/server.js';
import { unleashExport } from '../../test/unleash-export.js';

useFeatureServer(async () => {
  const call = adminCalls(server);
  await call('POST', '/api/admin/segments', { name: 'beta-users', constraints: [] });
  await call('POST', '/api/admin/context', {
    name: 'region',
    legalValues: [{ value: 'eu' }, { value: 'us' }],
  });
  await call('POST', '/api/admin/projects', { id: 'other', name: 'Other' });
  await call('POST', '/api/admin/projects/other/features', { name: 'taken' });
  await call('POST', '/api/admin/projects/default/features', { name: 'exp-b' });
  await call('POST', '/api/admin/projects/default/features', { name: 'retired' });
  await call('DELETE', '/api/admin/projects/default/features/retired');
});

const body = (data: unknown, environment = 'development', project = 'default') => ({
  project,
  environment,
  data,
});
const validate = (b: unknown, token = server.adminToken) =>
  server.request('POST', '/api/admin/features-batch/validate', { token, body: b });
const importWith = (b: unknown, token = server.adminToken) =>
  server.request('POST', '/api/admin/features-batch/import', { token, body: b });

/** Everything an import could change, read back: the features of both projects, context fields, events. */
async function snapshot() {
  const read = (url: string) => server.request('GET', url, { token: server.adminToken });
  return {
    default: (await read('/api/admin/projects/default/features')).body,
    other: (await read('/api/admin/projects/other/features')).body,
    context: (await read('/api/admin/context')).body,
    tagTypes: (await read('/api/admin/tag-types')).body,
    events: await countEvents(server),
  };
}

async function expectRefused(status: number, send: () => Promise<Reply>) {
  const before = await snapshot();
  const res = await send();
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({
    id: expect.any(String),
    name: expect.any(String),
    message: expect.any(String),
  });
  expect(await snapshot()).toEqual(before);
  return res.body;
}

describe('POST /api/admin/features-batch/validate', () => {
  it('a file that imports cleanly: no errors; existing features are announced; nothing is written', async () => {
    const before = await snapshot();
    const res = await validate(body(unleashExport()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      errors: [],
      warnings: [{ message: expect.stringContaining('overwritten'), affectedItems: ['exp-b'] }],
      permissions: [],
    });
    expect(await snapshot()).toEqual(before);
  });

  it('reports what an import would refuse, and the import refuses exactly that (400), changing nothing', async () => {
    const data: any = unleashExport();
    data.features.push({ name: 'exp-a' }, { name: 'taken' }, { name: 'retired' });
    data.featureStrategies.push(
      { name: 'myCustom', featureName: 'exp-b' },
      {
        name: 'default',
        featureName: 'exp-b',
        segments: [99],
        constraints: [{ contextName: 'region', operator: 'NUM_EQ', value: 'x' }],
      },
    );
    data.segments.push({ id: 99, name: 'vips' });
    data.contextFields[0].legalValues.push({ value: 'asia' });
    data.dependencies = [{ feature: 'exp-b', dependencies: [{ feature: 'nowhere' }] }];
    data.links = [{ feature: 'exp-a', links: [{ url: 'https://example.com' }] }];
    const res = await validate(body(data));
    expect(res.status).toBe(200);
    const byItems = Object.fromEntries(
      res.body.errors.map((e: { message: string; affectedItems: string[] }) => [
        e.affectedItems.join(' | '),
        e.message,
      ]),
    );
    expect(Object.keys(byItems).sort()).toEqual(
      [
        'data.featureStrategies[3].constraints[0].value: The operator NUM_EQ compares numbers: "x" is not one. Send a decimal number such as "5" or "-2.5".',
        'exp-a',
        'exp-b -> nowhere',
        'myCustom',
        'region',
        'taken (in project other)',
        'vips',
      ].sort(),
    );
    expect(byItems['exp-a']).toContain('more than once');
    expect(byItems['exp-b -> nowhere']).toContain('neither imported nor live in this project');
    expect(res.body.warnings.map((w: { affectedItems: string[] }) => w.affectedItems)).toEqual(
      expect.arrayContaining([['retired'], ['exp-b'], ['exp-a']]),
    );
    const refused = await expectRefused(400, () => importWith(body(data)));
    expect(refused.name).toBe('ValidationError');
    expect(refused.details).toEqual(
      res.body.errors.map((e: { message: string; affectedItems: string[] }) => ({
        path: 'data',
        message: `${e.message} ${e.affectedItems.join(', ')}`,
      })),
    );
  });

  it('lists the permissions the caller lacks; the import is then refused (403), changing nothing', async () => {
    const member = await createUser(server, 3);
    await grantRole(server, member.id, 'default');
    const editor = await createUser(server, 2);
    // A context field and a tag type the instance lacks: an Editor may create them, a Member may not.
    const withNewContext = unleashExport();
    withNewContext.contextFields.push({
      name: 'tier',
      description: null,
      stickiness: false,
      sortOrder: 2,
      legalValues: [],
    });
    const lacking = async (token: string) => (await validate(body(withNewContext), token)).body.permissions;
    expect(await lacking(editor.pat)).toEqual([]);
    expect(await lacking(member.pat)).toEqual([
      { message: expect.any(String), affectedItems: ['CREATE_CONTEXT_FIELD', 'CREATE_TAG_TYPE'] },
    ]);
    expect(await lacking(callers.viewer.pat)).toEqual([
      {
        message: expect.any(String),
        affectedItems: [
          'CREATE_CONTEXT_FIELD',
          'CREATE_FEATURE',
          'CREATE_FEATURE_STRATEGY',
          'CREATE_TAG_TYPE',
          'UPDATE_FEATURE',
          'UPDATE_FEATURE_ENVIRONMENT',
          'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
        ],
      },
    ]);
    const refused = await expectRefused(403, () => importWith(body(withNewContext), member.pat));
    expect(refused.message).toContain('"CREATE_CONTEXT_FIELD", "CREATE_TAG_TYPE"');
    await expectRefused(403, () => importWith(body(withNewContext), callers.viewer.pat));
    // Without what it lacks, the Member may import.
    const data = unleashExport();
    data.featureTags = data.featureTags.filter((t) => t.tagType === 'simple');
    data.tagTypes = data.tagTypes.filter((t) => t.name === 'simple');
    expect((await importWith(body(data), member.pat)).status).toBe(200);
  });

  it('400 for data of the wrong shape, naming the item, from both', async () => {
    const data: any = unleashExport();
    data.featureStrategies[0].constraints[0].operator = 'REGEX';
    data.features[1].stale = 'no';
    for (const send of [() => validate(body(data)), () => importWith(body(data))]) {
      const refused = await expectRefused(400, send);
      expect(refused.details.map((d: { path: string }) => d.path).sort()).toEqual([
        'data.featureStrategies[0].constraints[0].operator',
        'data.features[1].stale',
      ]);
    }
    for (const b of [
      { project: 'default', environment: 'development' },
      body({ features: [] }),
      body({ ...unleashExport(), features: {} }),
    ]) {
      await expectRefused(400, () => validate(b));
      await expectRefused(400, () => importWith(b));
    }
  });

  it('404 for an unknown project or environment, or one the project does not have', async () => {
    await adminCalls(server)('POST', '/api/admin/environments', { name: 'lonely', type: 'test' });
    for (const b of [
      body(unleashExport(), 'development', 'nope'),
      body(unleashExport(), 'mars'),
      body(unleashExport(), 'lonely'),
    ]) {
      expect((await expectRefused(404, () => validate(b))).name).toBe('NotFoundError');
      await expectRefused(404, () => importWith(b));
    }
  });

  it('401 without credentials, 403 for a client token, 415 for text', async () => {
    for (const url of ['/api/admin/features-batch/validate', '/api/admin/features-batch/import']) {
      await expectRefused(401, () => server.request('POST', url, { body: body(unleashExport()) }));
      await expectRefused(403, () =>
        server.request('POST', url, { token: CLIENT_TOKEN, body: body(unleashExport()) }),
      );
      await expectRefused(415, () =>
        server.request('POST', url, {
          token: server.adminToken,
          body: JSON.stringify(body(unleashExport())),
          contentType: 'text/plain',
        }),
      );
    }
  });
});
