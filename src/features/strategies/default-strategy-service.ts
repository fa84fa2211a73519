import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import { recordEvent } from '../../events/service.js';
import { actorOf, type Identity } from '../../http/identity.js';
import {
  type DefaultStrategy,
  findProjectDefaultStrategy,
  getProject,
  writeProjectDefaultStrategy,
} from '../../projects/service.js';
import { checkStrategySegments } from '../../segments/service.js';
import { checkStrategySettings } from './check-settings.js';
import type { DefaultStrategyBody } from './schemas.js';

/**
 * Sets the strategy the project gives a feature switched on in the environment without an active
 * one, checked by the rules of a strategy, its segments those of no project or of this one.
 */
export async function setDefaultStrategy(
  ctx: AppContext,
  identity: Identity,
  project: string,
  environment: string,
  input: Static<typeof DefaultStrategyBody>,
): Promise<DefaultStrategy> {
  const settings = checkStrategySettings(
    ctx,
    input,
    ctx.model.project(project)?.defaultStickiness ?? 'default',
  );
  return ctx.db.transaction(async (tx) => {
    // The project locked: two settings at once are recorded one after the other.
    await getProject(tx, project, { lock: 'update' });
    const strategy: DefaultStrategy = {
      ...settings,
      segments: await checkStrategySegments(tx, input.segments ?? [], project),
    };
    const before = await findProjectDefaultStrategy(tx, project, environment);
    await writeProjectDefaultStrategy(tx, project, environment, strategy);
    recordEvent(tx, actorOf(identity), {
      type: 'default-strategy-updated',
      project,
      environment,
      data: strategy,
      preData: before,
    });
    return strategy;
  });
}
