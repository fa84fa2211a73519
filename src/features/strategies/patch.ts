import type { Static } from '@sinclair/typebox';
import jsonPatch from 'fast-json-patch';
import type { AppContext } from '../../app-context.js';
import { compileCheck, throwIfProblems } from '../../http/check.js';
import { ValidationError } from '../../http/errors.js';
import type { Identity } from '../../http/identity.js';
import { describeStrategy } from '../core/service.js';
import type { FeatureEnvironmentPath } from '../environments/service.js';
import { lockedStrategyAt } from './locate.js';
import { type StrategyPatch, UpdateStrategyBody } from './schemas.js';
import { updateStrategyIn } from './service.js';

const updateCheck = compileCheck(UpdateStrategyBody);

/**
 * JSON Patch (RFC 6902) on a strategy as it is read — `{ id, name, title, disabled, featureName,
 * constraints, parameters, variants, segments, sortOrder }` — applied to the strategy locked, then
 * stored through the rules and the event of E11 (its id, feature and position stay).
 */
export async function patchStrategy(
  ctx: AppContext,
  identity: Identity,
  at: FeatureEnvironmentPath,
  id: string,
  patch: Static<typeof StrategyPatch>,
) {
  return ctx.db.transaction(async (tx) => {
    const before = await lockedStrategyAt(ctx, tx, at, id);
    let patched: unknown;
    try {
      patched = jsonPatch.applyPatch(
        structuredClone(describeStrategy(before)),
        patch as jsonPatch.Operation[],
        true,
        false,
      ).newDocument;
    } catch (error) {
      throw new ValidationError(
        `The patch cannot be applied to the strategy: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    throwIfProblems(updateCheck.problems(patched, ''));
    return updateStrategyIn(tx, ctx, identity, at, before, patched as Static<typeof UpdateStrategyBody>);
  });
}
