import type { AppContext } from '../../app-context.js';
import { recordEvent } from '../../events/service.js';
import { NoAccessError, NotFoundError, ValidationError } from '../../http/errors.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { assertPermission } from '../../http/permissions.js';
import type { ProjectVisibility } from '../../http/visibility.js';
import type { FeatureModel } from '../../read-model/model.js';
import { checkStrategySegments, describeSegment } from '../../segments/service.js';
import { describeStrategy } from '../core/service.js';
import { setStrategySegments } from './segment-store.js';
import { findStrategy } from './store.js';

/** The segments a strategy uses, from memory; none for an id no strategy has (as Unleash answers). */
export function readStrategySegments(model: FeatureModel, strategyId: string, visible: ProjectVisibility) {
  const found = model.strategy(strategyId);
  // A strategy of a project hidden from the caller is answered as an unknown id.
  const seen = found && visible.sees(found.feature.project) ? found.strategy.segments : [];
  const segments = seen.flatMap((id) => model.segment(id) ?? []);
  return { segments: segments.map(describeSegment) };
}

export interface StrategySegmentsInput {
  projectId: string;
  environmentId: string;
  strategyId: string;
  segmentIds: number[];
}

/**
 * Sets the segments of a strategy to exactly those listed. The caller needs
 * UPDATE_FEATURE_STRATEGY where the body says the strategy is (403), and the strategy must be there
 * (404 when there is no such strategy, 403 when it is elsewhere); each segment must exist and be
 * usable in the project (400). A list as it is changes nothing.
 */
export async function replaceStrategySegments(
  ctx: AppContext,
  identity: Identity,
  input: StrategySegmentsInput,
) {
  const { projectId, environmentId, strategyId } = input;
  assertPermission(identity, 'UPDATE_FEATURE_STRATEGY', { project: projectId, environment: environmentId });
  await ctx.db.transaction(async (tx) => {
    const before = await findStrategy(tx, strategyId, { lock: 'update' });
    if (!before || before.archived) {
      throw new NotFoundError(
        `There is no strategy with the id "${strategyId}"${before ? ': its feature is archived' : ''}.`,
      );
    }
    if (before.project !== projectId || before.environment !== environmentId) {
      throw new NoAccessError(
        `The strategy "${strategyId}" is not in the environment "${environmentId}" of the project "${projectId}".`,
      );
    }
    let segments: number[];
    try {
      segments = await checkStrategySegments(tx, input.segmentIds, projectId);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError(
        error.message,
        error.details?.map((d) => ({ ...d, path: 'segmentIds' })),
      );
    }
    if (segments.join() === before.segments.join()) return;
    await setStrategySegments(tx, strategyId, segments);
    recordEvent(tx, actorOf(identity), {
      type: 'feature-strategy-update',
      project: projectId,
      featureName: before.featureName,
      environment: environmentId,
      data: describeStrategy({ ...before, segments }),
      preData: describeStrategy(before),
    });
  });
  return input;
}
