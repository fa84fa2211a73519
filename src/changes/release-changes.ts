import { changeMilestoneStrategy } from '../release-plans/milestone-strategies.js';
import {
  changeProgression,
  deleteProgression,
  type ProgressionInput,
  resumeProgressions,
} from '../release-plans/progression.js';
import {
  changeEnvironmentSafeguard,
  changePlanSafeguard,
  deleteEnvironmentSafeguard,
  deletePlanSafeguard,
  type SafeguardInput,
} from '../release-plans/safeguards/service.js';
import { addReleasePlan, removeReleasePlan, startMilestone } from '../release-plans/service.js';
import { type At, change, type Input, inEnvironment } from './change.js';

// The changes of a flag's release plans and safeguards, named as Unleash's change requests name them; the
// permissions are those Unleash's UI asks for.

export const RELEASE_CHANGES = {
  addReleasePlan: change(
    'CREATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { templateId: string }) => addReleasePlan(ctx, identity, c.at, c.templateId),
  ),
  deleteReleasePlan: change(
    'DELETE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { planId: string }) => removeReleasePlan(ctx, identity, c.at, c.planId),
  ),
  startMilestone: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { planId: string; milestoneId: string }) =>
      startMilestone(ctx, identity, c.at, c.planId, c.milestoneId),
  ),
  changeMilestoneProgression: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { sourceMilestone: string; payload: ProgressionInput }) =>
      changeProgression(ctx, identity, c.at, c.sourceMilestone, c.payload),
  ),
  deleteMilestoneProgression: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { sourceMilestone: string }) =>
      deleteProgression(ctx, identity, c.at, c.sourceMilestone),
  ),
  resumeMilestoneProgression: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { planId: string }) => resumeProgressions(ctx, identity, c.at, c.planId),
  ),
  updateMilestoneStrategy: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { id: string; payload: Input<typeof changeMilestoneStrategy, 4> }) =>
      changeMilestoneStrategy(ctx, identity, c.at, c.id, c.payload),
  ),
  changeReleasePlanSafeguard: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { planId: string; payload: SafeguardInput }) =>
      changePlanSafeguard(ctx, identity, c.at, c.planId, c.payload),
  ),
  deleteReleasePlanSafeguard: change(
    'UPDATE_FEATURE_STRATEGY',
    inEnvironment,
    (ctx, identity, c: At & { planId: string; safeguardId: string }) =>
      deletePlanSafeguard(ctx, identity, c.at, c.planId, c.safeguardId),
  ),
  changeFeatureEnvSafeguard: change(
    'UPDATE_FEATURE_ENVIRONMENT',
    inEnvironment,
    (ctx, identity, c: At & { payload: SafeguardInput }) =>
      changeEnvironmentSafeguard(ctx, identity, c.at, c.payload),
  ),
  deleteFeatureEnvSafeguard: change(
    'UPDATE_FEATURE_ENVIRONMENT',
    inEnvironment,
    (ctx, identity, c: At & { safeguardId: string }) =>
      deleteEnvironmentSafeguard(ctx, identity, c.at, c.safeguardId),
  ),
};
