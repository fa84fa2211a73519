import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import { checkConstraints } from '../../constraints/service.js';
import { recordEvent } from '../../events/service.js';
import { actorOf, type Identity } from '../../http/identity.js';
import {
  type DefaultStrategy,
  findProjectDefaultStrategy,
  getProject,
  writeProjectDefaultStrategy,
} from '../../projects/service.js';
import { checkStrategySegments } from '../../segments/service.js';
import { normalizeParameters } from '../../strategies/parameters.js';
import { prepareVariants } from '../variants/rules.js';
import type { DefaultStrategyBody } from './schemas.js';
import { assertStrategyType } from './service.js';

/**
 * Sets the strategy the project gives a feature switched on in the environment without an active
 * one, checked by the rules of a strategy (type, parameters, constraints, variants, segments of
 * the project). A flexibleRollout `groupId` left empty stays empty: it becomes each feature's own.
 */
export async function setDefaultStrategy(
  ctx: AppContext,
  identity: Identity,
  project: string,
  environment: string,
  input: Static<typeof DefaultStrategyBody>,
): Promise<DefaultStrategy> {
  assertStrategyType(ctx.model, input.name);
  const constraints = checkConstraints(ctx.model.contextRules(), input.constraints ?? []);
  const variants = prepareVariants(input.variants ?? [], 'variants');
  return ctx.db.transaction(async (tx) => {
    // The project locked: two settings at once are recorded one after the other.
    const { defaultStickiness } = await getProject(tx, project, { lock: 'update' });
    const strategy: DefaultStrategy = {
      name: input.name,
      title: input.title ?? null,
      disabled: input.disabled ?? false,
      parameters: normalizeParameters(
        input.name,
        input.parameters,
        { groupId: '', stickiness: defaultStickiness || 'default' },
        ctx.model.strategyDefinition(input.name),
      ),
      constraints,
      variants,
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
