import type { AppContext } from '../../app-context.js';
import { recordEvent } from '../../events/service.js';
import { ValidationError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { type FeatureEnvironmentPath, liveFeatureEnvironment } from '../environments/service.js';
import { strategyAt } from './locate.js';
import { eventOf } from './service.js';
import { type FeatureStrategy, setSortOrders, strategiesOf } from './store.js';

function positions(strategies: FeatureStrategy[]) {
  return strategies.map((s) => ({ id: s.id, name: s.name, title: s.title, sortOrder: s.sortOrder }));
}

/** Moves the listed strategies of the environment to the positions given; the others stay. */
export async function reorderStrategies(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  order: readonly { id: string; sortOrder: number }[],
): Promise<void> {
  const repeated = order.filter((o, i) => order.findIndex((p) => p.id === o.id) !== i);
  if (repeated.length > 0) {
    throw new ValidationError(`The strategy "${repeated[0]!.id}" is listed more than once.`);
  }
  const actor = actorOf(identity);
  await ctx.db.transaction(async (tx) => {
    await liveFeatureEnvironment(tx, at, { lock: 'update' });
    const before = await strategiesOf(tx, at.featureName, at.environment);
    const here = new Set(before.map((s) => s.id));
    for (const { id } of order) if (!here.has(id)) await strategyAt(tx, at, id);
    if (order.length === 0) return;
    await setSortOrders(tx, order);
    const after = await strategiesOf(tx, at.featureName, at.environment);
    recordEvent(tx, actor, {
      type: 'strategy-order-changed',
      ...eventOf(at),
      data: positions(after),
      preData: positions(before),
    });
  });
}
