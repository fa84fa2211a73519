import { describe, expect, it } from 'vitest';
import {
  addStrategy,
  callers,
  environmentPath,
  expectRefused,
  lastEvent,
  listStrategies,
  makeFeature,
  readFeature,
  server,
  strategiesPath,
  useFeatureModelServer,
} from '../../../test/feature-model.js';
import { admin } from '../../../test/requests.js';
import { countEvents } from '../../../test/server.js';

useFeatureModelServer(async () => {
  await makeFeature(server, 'checkout');
  await makeFeature(server, 'search');
  await addStrategy(server, 'checkout', { name: 'default' });
  await addStrategy(server, 'checkout', { name: 'userWithId', parameters: { userIds: 'a' } });
  await addStrategy(server, 'search', { name: 'default' });
});

describe('GET and DELETE …/strategies/:strategyId', () => {
  it('answers 404 for an unknown id and 403 for a strategy of another feature or environment', async () => {
    const [mine] = await listStrategies();
    const get = (path: string) => server.request('GET', path, admin(server));
    expect((await get(`${strategiesPath()}/no-such-id`)).status).toBe(404);
    expect((await get(`${strategiesPath('search')}/${mine.id}`)).status).toBe(403);
    expect((await get(`${strategiesPath('checkout', 'production')}/${mine.id}`)).status).toBe(403);
    for (const path of [
      `${strategiesPath('search')}/${mine.id}`,
      `${strategiesPath('checkout', 'production')}/${mine.id}`,
    ]) {
      await expectRefused(
        server,
        () => listStrategies(),
        () => server.request('DELETE', path, admin(server)),
        403,
      );
    }
    await expectRefused(
      server,
      () => listStrategies(),
      () => server.request('DELETE', `${strategiesPath()}/no-such-id`, admin(server)),
      404,
    );
    await expectRefused(
      server,
      () => listStrategies(),
      () => server.request('DELETE', `${strategiesPath()}/${mine.id}`, { token: callers.viewer }),
      403,
    );
  });

  it('removes a strategy with a feature-strategy-remove event; the others keep their places', async () => {
    const before = await listStrategies();
    const events = await countEvents(server, 'feature-strategy-remove');
    const res = await server.request('DELETE', `${strategiesPath()}/${before[0].id}`, {
      token: callers.editor,
    });
    expect(res.status).toBe(200);
    expect(await listStrategies()).toEqual(before.slice(1));
    expect((await server.request('GET', `${strategiesPath()}/${before[0].id}`, admin(server))).status).toBe(
      404,
    );
    expect(await countEvents(server, 'feature-strategy-remove')).toBe(events + 1);
    expect(await lastEvent(server, 'feature-strategy-remove')).toMatchObject({
      featureName: 'checkout',
      environment: 'development',
      preData: { id: before[0].id },
    });
  });

  it('switches the environment off when its last active strategy goes', async () => {
    await makeFeature(server, 'short');
    const only = await addStrategy(server, 'short', { name: 'default' });
    await server.request('POST', `${environmentPath('short')}/on`, admin(server));
    expect((await readFeature(server, 'short')).environments[0].enabled).toBe(true);
    const disabled = await countEvents(server, 'feature-environment-disabled');
    await server.request('DELETE', `${strategiesPath('short')}/${only.id}`, admin(server));
    expect((await readFeature(server, 'short')).environments[0].enabled).toBe(false);
    expect(await countEvents(server, 'feature-environment-disabled')).toBe(disabled + 1);
  });
});

describe('POST …/strategies/set-sort-order', () => {
  it('moves the listed strategies; one strategy-order-changed event', async () => {
    await makeFeature(server, 'ordered');
    const a = await addStrategy(server, 'ordered', { name: 'default', title: 'a' });
    const b = await addStrategy(server, 'ordered', { name: 'default', title: 'b' });
    const c = await addStrategy(server, 'ordered', { name: 'default', title: 'c' });
    const events = await countEvents(server, 'strategy-order-changed');
    const res = await server.request('POST', `${strategiesPath('ordered')}/set-sort-order`, {
      token: callers.editor,
      body: [
        { id: c.id, sortOrder: 0 },
        { id: a.id, sortOrder: 1 },
        { id: b.id, sortOrder: 2 },
      ],
    });
    expect(res.status).toBe(200);
    expect((await listStrategies('ordered')).map((s: { title: string }) => s.title)).toEqual(['c', 'a', 'b']);
    expect(
      (await readFeature(server, 'ordered')).environments[0].strategies.map(
        (s: { title: string }) => s.title,
      ),
    ).toEqual(['c', 'a', 'b']);
    expect(await countEvents(server, 'strategy-order-changed')).toBe(events + 1);
    const event = await lastEvent(server, 'strategy-order-changed');
    expect(event.data.map((s: { id: string }) => s.id)).toEqual([c.id, a.id, b.id]);
    expect(event.preData.map((s: { id: string }) => s.id)).toEqual([a.id, b.id, c.id]);
  });

  it('refuses repeated ids and bad bodies (400), unknown ids (404), strategies of another feature (403), Viewers (403)', async () => {
    const [first] = await listStrategies('ordered');
    const [foreign] = await listStrategies('search');
    const order = (body: unknown, token = server.adminToken) =>
      server.request('POST', `${strategiesPath('ordered')}/set-sort-order`, { token, body });
    const read = () => listStrategies('ordered');
    for (const body of [
      [
        { id: first.id, sortOrder: 1 },
        { id: first.id, sortOrder: 2 },
      ],
      [{ id: first.id }],
      [{ id: first.id, sortOrder: 'last' }],
      { id: first.id, sortOrder: 1 },
    ]) {
      await expectRefused(server, read, () => order(body), 400, JSON.stringify(body));
    }
    await expectRefused(server, read, () => order([{ id: 'no-such-id', sortOrder: 1 }]), 404);
    await expectRefused(server, read, () => order([{ id: foreign.id, sortOrder: 1 }]), 403);
    await expectRefused(server, read, () => order([{ id: first.id, sortOrder: 5 }], callers.viewer), 403);
    expect((await order([])).status).toBe(200);
  });
});
