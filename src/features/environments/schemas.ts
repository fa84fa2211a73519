import { Type } from '@sinclair/typebox';
import { MAX_BATCH_NAMES } from '../../http/schemas.js';

/** Unleash's query parameter of `on`: `true` also enables the environment's disabled strategies. */
export const SwitchQuery = Type.Object({
  shouldActivateDisabledStrategies: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
});

export const BulkToggleParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  environment: Type.String({ minLength: 1 }),
});

export const BulkToggleBody = Type.Object({
  features: Type.Array(Type.String({ minLength: 1 }), {
    maxItems: MAX_BATCH_NAMES,
    description: `Feature names, at most ${MAX_BATCH_NAMES}`,
  }),
  shouldActivateDisabledStrategies: Type.Optional(
    Type.Boolean({ description: 'Also enable disabled strategies (as the query parameter)' }),
  ),
});
