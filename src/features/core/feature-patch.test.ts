import { beforeAll, describe, expect, it } from 'vitest';
import {
  callers,
  createFeature,
  createProject,
  eventsOf,
  expectCallerRefusals,
  expectRefused,
  readMetadata,
  server,
  useFeatureServer,
} from '../../../test/features.js';
import { admin } from '../../../test/requests.js';
import { countEvents } from '../../../test/server.js';

useFeatureServer(async () => {
  await createProject(server, 'other');
});

const patch = (name: string, body: unknown, project = 'default') =>
  server.request('PATCH', `/api/admin/projects/${project}/features/${name}`, { ...admin(server), body });

describe('E16 PATCH /api/admin/projects/:projectId/features/:featureName', () => {
  beforeAll(async () => {
    await createFeature(server, 'patch-me', 'default', { description: 'before', type: 'release' });
  });
  const read = () => readMetadata('patch-me');

  it('applies the operations: 200 with the feature, read back, events', async () => {
    const res = await patch('patch-me', [
      { op: 'replace', path: '/description', value: 'after' },
      { op: 'replace', path: '/type', value: 'experiment' },
      { op: 'replace', path: '/impressionData', value: true },
      { op: 'replace', path: '/stale', value: true },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'patch-me',
      description: 'after',
      type: 'experiment',
      project: 'default',
      stale: true,
      impressionData: true,
      archived: false,
    });
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    expect(await read()).toMatchObject({
      description: 'after',
      type: 'experiment',
      stale: true,
      impressionData: true,
    });
    const events = await eventsOf(server, 'feature=patch-me');
    expect(events.slice(0, 2).map((e) => e.type)).toEqual(['feature-stale-on', 'feature-metadata-updated']);
    expect(events[1]).toMatchObject({ preData: { description: 'before' }, data: { description: 'after' } });
  });

  it('applies operations in order: the last on a path wins, add replaces, remove clears', async () => {
    const res = await patch('patch-me', [
      { op: 'replace', path: '/description', value: 'first' },
      { op: 'replace', path: '/description', value: 'second' },
      { op: 'add', path: '/type', value: 'kill-switch' },
      { op: 'test', path: '/stale', value: true },
      { op: 'replace', path: '/stale', value: false },
    ]);
    expect(res.status).toBe(200);
    expect(await read()).toMatchObject({ description: 'second', type: 'kill-switch', stale: false });
    expect((await eventsOf(server, 'feature=patch-me'))[0]!.type).toBe('feature-stale-off');
    await patch('patch-me', [{ op: 'remove', path: '/description' }]);
    expect(await read()).toMatchObject({ description: null });
  });

  it('ignores changes to the name and the project', async () => {
    const res = await patch('patch-me', [
      { op: 'replace', path: '/name', value: 'patched-name' },
      { op: 'replace', path: '/project', value: 'other' },
      { op: 'replace', path: '/description', value: 'kept name' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'patch-me', project: 'default', description: 'kept name' });
    expect(await read()).toMatchObject({ name: 'patch-me', project: 'default' });
    expect(await readMetadata('patched-name')).toBe(404);
    expect(await readMetadata('patch-me', 'other')).toBe(404);
  });

  it('answers 200 and changes nothing, with no event, for an empty array', async () => {
    const before = await read();
    const events = await countEvents(server);
    const res = await patch('patch-me', []);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('patch-me');
    expect(await read()).toEqual(before);
    expect(await countEvents(server)).toBe(events);
  });

  it('refuses any operation on a /variants path with 403, changing nothing', async () => {
    for (const ops of [
      [{ op: 'add', path: '/variants/0', value: { name: 'a', weight: 1000 } }],
      [
        { op: 'replace', path: '/description', value: 'not applied' },
        { op: 'replace', path: '/environments/0/variants', value: [] },
      ],
    ]) {
      const res = await expectRefused(server, 403, () => patch('patch-me', ops), read, JSON.stringify(ops));
      expect(res.body.name).toBe('NoAccessError');
    }
  });

  it('answers 400 for invalid patches, failed tests and bad resulting types, changing nothing', async () => {
    const bodies: unknown[] = [
      { op: 'replace', path: '/description', value: 'x' },
      [{ path: '/description', value: 'x' }],
      [{ op: 'replace', value: 'x' }],
      [{ op: 'frobnicate', path: '/description', value: 'x' }],
      [{ op: 'replace', path: 5, value: 'x' }],
      [{ op: 'replace', path: '/nope/deeper', value: 'x' }],
      [{ op: 'test', path: '/description', value: 'something else' }],
      [
        { op: 'replace', path: '/description', value: 'not applied' },
        { op: 'test', path: '/type', value: 'wrong' },
      ],
      [{ op: 'replace', path: '/stale', value: 'yes' }],
      [{ op: 'replace', path: '/impressionData', value: 1 }],
      [{ op: 'replace', path: '/description', value: 42 }],
      [{ op: 'replace', path: '/type', value: 7 }],
      [{ op: 'replace', path: '/archived', value: 'no' }],
      [{ op: 'copy', path: '/description' }],
    ];
    for (const body of bodies) {
      const res = await expectRefused(server, 400, () => patch('patch-me', body), read, JSON.stringify(body));
      expect(res.body.name).toBe('ValidationError');
    }
  });

  it('answers 404 for an unknown, archived or other-project feature (after the schema check)', async () => {
    await createFeature(server, 'patch-archived');
    await server.request('DELETE', '/api/admin/projects/default/features/patch-archived', admin(server));
    const ops = [{ op: 'replace', path: '/description', value: 'x' }];
    for (const [name, project] of [
      ['nope', 'default'],
      ['patch-archived', 'default'],
      ['patch-me', 'other'],
    ] as const) {
      await expectRefused(server, 404, () => patch(name, ops, project), read, `${project}/${name}`);
    }
    await expectRefused(server, 400, () => patch('nope', [{ op: 'bad' }]), read, 'bad body, unknown feature');
  });

  it('archives when /archived becomes true, with a feature-archived event', async () => {
    await createFeature(server, 'patch-to-archive');
    const res = await patch('patch-to-archive', [
      { op: 'replace', path: '/archived', value: true },
      { op: 'replace', path: '/description', value: 'last words' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.archived).toBe(true);
    expect(await readMetadata('patch-to-archive')).toBe(404);
    const events = await eventsOf(server, 'feature=patch-to-archive');
    expect(events.slice(0, 3).map((e) => e.type)).toEqual([
      'feature-archived',
      'feature-metadata-updated',
      'feature-created',
    ]);
  });

  it('refuses callers without the permission', async () => {
    await expectCallerRefusals(
      server,
      callers,
      {
        method: 'PATCH',
        url: '/api/admin/projects/default/features/patch-me',
        body: [{ op: 'replace', path: '/description', value: 'hacked' }],
      },
      read,
    );
  });
});

describe('E16 under concurrency', () => {
  it('lets one of many patches guarded by the same `test` win; the others are refused, none lost', async () => {
    await createFeature(server, 'contended', 'default', { description: 'v0' });
    const before = await countEvents(server, 'feature-metadata-updated');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        patch('contended', [
          { op: 'test', path: '/description', value: 'v0' },
          { op: 'replace', path: '/description', value: `v${i + 1}` },
        ]),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    // Refused: 409 when the change happened while the patch ran; 400 (the spec's answer to a
    // failed test) when it happened before the patch read the feature.
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect([409, 400]).toContain(a.status);
      expect(a.body.name).toBe(a.status === 409 ? 'ConflictError' : 'ValidationError');
    }
    expect(((await readMetadata('contended')) as { description: string }).description).toBe(
      won[0]!.body.description,
    );
    expect(await countEvents(server, 'feature-metadata-updated')).toBe(before + 1);
  });

  it('answers a patch that changes nothing without writing, and one that does after it, each once', async () => {
    await createFeature(server, 'calm', 'default', { description: 'same' });
    const before = await countEvents(server, 'feature-metadata-updated');
    const same = await patch('calm', [{ op: 'replace', path: '/description', value: 'same' }]);
    expect(same.status).toBe(200);
    expect(await countEvents(server, 'feature-metadata-updated')).toBe(before);
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((v) => patch('calm', [{ op: 'replace', path: '/description', value: v }])),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await countEvents(server, 'feature-metadata-updated')).toBe(before + 4);
    expect(['a', 'b', 'c', 'd']).toContain(
      ((await readMetadata('calm')) as { description: string }).description,
    );
  });
});
