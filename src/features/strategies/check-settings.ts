import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import { checkConstraints } from '../../constraints/service.js';
import { normalizeParameters } from '../../strategies/parameters.js';
import { prepareVariants } from '../variants/rules.js';
import type { CreateStrategyBody } from './schemas.js';
import { assertStrategyType } from './service.js';
import type { StrategySettings } from './settings.js';

/**
 * Checks everything but the segments, which take the database (the caller checks them, once for
 * all the strategies it saves): the type, its parameters, constraints and variants.
 */
export function checkStrategySettings(
  ctx: AppContext,
  input: Static<typeof CreateStrategyBody>,
  defaultStickiness: string,
  path = '',
): Omit<StrategySettings, 'segments'> {
  assertStrategyType(ctx.model, input.name);
  return {
    name: input.name,
    title: input.title ?? null,
    disabled: input.disabled ?? false,
    parameters: normalizeParameters(
      input.name,
      input.parameters,
      { groupId: '', stickiness: defaultStickiness || 'default' },
      ctx.model.strategyDefinition(input.name),
    ),
    constraints: checkConstraints(ctx.model.contextRules(), input.constraints ?? []),
    variants: prepareVariants(input.variants ?? [], `${path}variants`),
  };
}
