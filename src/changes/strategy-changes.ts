import { addDependency, removeDependencies, removeDependency } from '../features/dependencies/service.js';
import { switchFeatureEnvironment, switchFeatures } from '../features/environments/switch-service.js';
import { reorderStrategies } from '../features/strategies/order-service.js';
import { patchStrategy } from '../features/strategies/patch.js';
import { replaceStrategySegments } from '../features/strategies/segments.js';
import { addStrategy, removeStrategy, replaceStrategy } from '../features/strategies/service.js';
import { changeSegment, removeSegment } from '../features/usage/service.js';
import {
  patchVariants,
  replaceVariants,
  replaceVariantsInEnvironments,
} from '../features/variants/service.js';
import { createSegment } from '../segments/service.js';
import { type At, change, type Input, inEnvironment, inProject } from './change.js';

// The changes of a flag in its environments (on/off, strategies, variants), of its parent, and of
// the segments its strategies use.

const inProjectEnvironment = (c: { project: string; environment: string }) => ({
  project: c.project,
  environment: c.environment,
});
const anywhere = () => ({});

export const STRATEGY_CHANGES = {
  updateEnabled: change(
    'UPDATE_FEATURE_ENVIRONMENT',
    inEnvironment,
    (ctx, identity, c: At & { enabled: boolean; shouldActivateDisabledStrategies?: boolean }) =>
      switchFeatureEnvironment(ctx, identity, c.at, c.enabled, {
        activateDisabledStrategies: c.shouldActivateDisabledStrategies === true,
      }),
  ),
  updateEnabledOfFeatures: change(
    'UPDATE_FEATURE_ENVIRONMENT',
    inProjectEnvironment,
    (
      ctx,
      identity,
      c: {
        project: string;
        environment: string;
        features: readonly string[];
        enabled: boolean;
        shouldActivateDisabledStrategies?: boolean;
      },
    ) =>
      switchFeatures(ctx, identity, c.project, c.environment, c.features, c.enabled, {
        activateDisabledStrategies: c.shouldActivateDisabledStrategies === true,
      }),
  ),
  addStrategy: change(
    'CREATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { payload: Input<typeof addStrategy, 3> }) =>
      addStrategy(ctx, identity, c.at, c.payload),
  ),
  updateStrategy: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { id: string; payload: Input<typeof replaceStrategy, 4> }) =>
      replaceStrategy(ctx, identity, c.at, c.id, c.payload),
  ),
  patchStrategy: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { id: string; operations: Input<typeof patchStrategy, 4> }) =>
      patchStrategy(ctx, identity, c.at, c.id, c.operations),
  ),
  deleteStrategy: change('DELETE_FEATURE_STRATEGY', inEnvironment, (ctx, identity, c: At & { id: string }) =>
    removeStrategy(ctx, identity, c.at, c.id),
  ),
  reorderStrategy: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { payload: Input<typeof reorderStrategies, 3> }) =>
      reorderStrategies(ctx, identity, c.at, c.payload),
  ),
  // The strategy's project and environment are in the body: the service checks the permission there.
  setStrategySegments: change(
    'NONE',
    anywhere,
    (ctx, identity, c: { payload: Input<typeof replaceStrategySegments, 2> }) =>
      replaceStrategySegments(ctx, identity, c.payload),
  ),
  // Change requests name setting an environment's variant list `patchVariant`.
  patchVariant: change(
    'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    inEnvironment,
    (ctx, identity, c: At & { variants: Input<typeof replaceVariants, 3> }) =>
      replaceVariants(ctx, identity, c.at, c.variants),
  ),
  jsonPatchVariants: change(
    'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    inEnvironment,
    (ctx, identity, c: At & { operations: Input<typeof patchVariants, 3> }) =>
      patchVariants(ctx, identity, c.at, c.operations),
  ),
  replaceVariantsInEnvironments: change(
    'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    inProject,
    (
      ctx,
      identity,
      c: { project: string; feature: string; payload: Input<typeof replaceVariantsInEnvironments, 4> },
    ) => replaceVariantsInEnvironments(ctx, identity, c.project, c.feature, c.payload),
  ),
  addDependency: change(
    'UPDATE_FEATURE_DEPENDENCY',
    inProject,
    (ctx, identity, c: { project: string; feature: string; payload: Input<typeof addDependency, 4> }) =>
      addDependency(ctx, identity, c.project, c.feature, c.payload),
  ),
  deleteDependency: change(
    'UPDATE_FEATURE_DEPENDENCY',
    inProject,
    (ctx, identity, c: { project: string; feature: string; parent: string }) =>
      removeDependency(ctx, identity, c.project, c.feature, c.parent),
  ),
  deleteDependencies: change(
    'UPDATE_FEATURE_DEPENDENCY',
    inProject,
    (ctx, identity, c: { project: string; feature: string }) =>
      removeDependencies(ctx, identity, c.project, c.feature),
  ),
  createSegment: change(
    'CREATE_SEGMENT',
    anywhere,
    (ctx, identity, c: { payload: Input<typeof createSegment, 2> }) =>
      createSegment(ctx, identity, c.payload),
  ),
  updateSegment: change(
    'UPDATE_SEGMENT',
    anywhere,
    (ctx, identity, c: { id: number; payload: Input<typeof changeSegment, 3> }) =>
      changeSegment(ctx, identity, c.id, c.payload),
  ),
  deleteSegment: change('DELETE_SEGMENT', anywhere, (ctx, identity, c: { id: number }) =>
    removeSegment(ctx, identity, c.id),
  ),
};
