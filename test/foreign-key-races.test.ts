import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './requests.js';
import {
  createFeature,
  createProject,
  isPostgres,
  type Reply,
  startTestServer,
  type TestServer,
} from './server.js';
import { stallInserts } from './stall.js';

// Two requests racing over a row that one of them refers to and the other deletes, put in a fixed
// order by holding one of them at its insert. Only PostgreSQL runs transactions side by side; the
// embedded database runs them one at a time, where these races cannot happen.

let server: TestServer;

beforeAll(async () => {
  if (isPostgres()) server = await startTestServer();
});
afterAll(() => server?.close());

describe.runIf(isPostgres())('a project deleted while a feature is created in it', () => {
  it('deleted first: the creation that checked the project before gets 404 saying it is gone', async () => {
    await createProject(server, 'doomed');
    const stall = await stallInserts(server, 'features', 'before');
    const create = server.request('POST', '/api/admin/projects/doomed/features', {
      ...admin(server),
      body: { name: 'too-late' },
    });
    try {
      await stall.reached();
      const deleted = await server.request('DELETE', '/api/admin/projects/doomed', admin(server));
      expect(deleted.status, deleted.text).toBe(200);
    } finally {
      await stall.release();
    }
    const created = await create;
    expect(created.status, created.text).toBe(404);
    expect(created.body).toMatchObject({
      name: 'NotFoundError',
      message: 'There is no project "doomed" (any more: it may have been deleted a moment ago).',
    });
    const read = await server.request('GET', '/api/admin/projects/default/features/too-late', admin(server));
    expect(read.status).toBe(404);
  });

  it('created first: the deletion waits for it, then refuses to take the new feature with it', async () => {
    await createProject(server, 'kept');
    const stall = await stallInserts(server, 'features', 'after');
    const create = server.request('POST', '/api/admin/projects/kept/features', {
      ...admin(server),
      body: { name: 'just-in-time' },
    });
    let deletion: Promise<Reply> | undefined;
    try {
      await stall.reached();
      deletion = server.request('DELETE', '/api/admin/projects/kept', admin(server));
      await stall.blocked(deletion);
    } finally {
      await stall.release();
    }
    expect((await create).status).toBe(201);
    const deleted = await deletion!;
    expect(deleted.status, deleted.text).toBe(409);
    expect(deleted.body.message).toBe(
      'The project "kept" still holds 1 feature that is not archived: archive or move them first.',
    );
    const read = await server.request('GET', '/api/admin/projects/kept/features/just-in-time', admin(server));
    expect(read.status).toBe(200);
  });
});

describe.runIf(isPostgres())('a segment deleted while a strategy is given it', () => {
  it('the deletion waits for the strategy, then refuses: the segment is in use', async () => {
    await createFeature(server, 'segmented');
    const segment = await server.request('POST', '/api/admin/segments', {
      ...admin(server),
      body: { name: 'beta-testers', constraints: [] },
    });
    expect(segment.status).toBe(201);
    const stall = await stallInserts(server, 'feature_strategy_segments', 'before');
    const strategy = server.request(
      'POST',
      '/api/admin/projects/default/features/segmented/environments/development/strategies',
      { ...admin(server), body: { name: 'default', segments: [segment.body.id] } },
    );
    let deletion: Promise<Reply> | undefined;
    try {
      await stall.reached();
      deletion = server.request('DELETE', `/api/admin/segments/${segment.body.id}`, admin(server));
      await stall.blocked(deletion);
    } finally {
      await stall.release();
    }
    const added = await strategy;
    expect(added.status, added.text).toBe(200);
    expect(added.body.segments).toEqual([segment.body.id]);
    const deleted = await deletion!;
    expect(deleted.status, deleted.text).toBe(409);
    expect(deleted.body).toMatchObject({
      name: 'NameExistsError',
      message:
        'The segment "beta-testers" is used by 1 strategy (features segmented): remove it from them first.',
    });
  });
});
