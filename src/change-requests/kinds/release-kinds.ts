import { type Static, Type } from '@sinclair/typebox';
import { CreateSafeguardBody } from '../../release-plans/safeguards/schemas.js';
import { at, kind, onlyOne, UpdateStrategyPayload } from './kind.js';

// The changes of a flag environment's release plan and safeguards that a request can hold.

/** A plan's or milestone's id. */
const PlanPart = Type.String({ minLength: 1, maxLength: 100 });
const ProgressionPayload = Type.Object({
  sourceMilestone: PlanPart,
  targetMilestone: PlanPart,
  transitionCondition: Type.Object({ intervalMinutes: Type.Integer({ minimum: 1, maximum: 525_600 }) }),
});
type SafeguardInput = Static<typeof CreateSafeguardBody>;

export const RELEASE_KINDS = {
  addReleasePlan: kind<{ templateId: string }>({
    feature: true,
    payload: Type.Object({ templateId: PlanPart }),
    command: (target, feature, p) => ({
      action: 'addReleasePlan',
      at: at(target, feature),
      templateId: p.templateId,
    }),
    sameTarget: onlyOne,
  }),
  deleteReleasePlan: kind<{ planId: string }>({
    feature: true,
    payload: Type.Object({ planId: PlanPart }),
    command: (target, feature, p) => ({
      action: 'deleteReleasePlan',
      at: at(target, feature),
      planId: p.planId,
    }),
    sameTarget: onlyOne,
  }),
  startMilestone: kind<{ planId: string; milestoneId: string }>({
    feature: true,
    payload: Type.Object({ planId: PlanPart, milestoneId: PlanPart }),
    command: (target, feature, p) => ({
      action: 'startMilestone',
      at: at(target, feature),
      planId: p.planId,
      milestoneId: p.milestoneId,
    }),
    sameTarget: onlyOne,
  }),
  changeMilestoneProgression: kind<Static<typeof ProgressionPayload>>({
    feature: true,
    payload: ProgressionPayload,
    command: (target, feature, { sourceMilestone, ...payload }) => ({
      action: 'changeMilestoneProgression',
      at: at(target, feature),
      sourceMilestone,
      payload,
    }),
    sameTarget: (p) => p.sourceMilestone,
  }),
  deleteMilestoneProgression: kind<{ sourceMilestone: string }>({
    feature: true,
    payload: Type.Object({ sourceMilestone: PlanPart }),
    command: (target, feature, p) => ({
      action: 'deleteMilestoneProgression',
      at: at(target, feature),
      sourceMilestone: p.sourceMilestone,
    }),
    sameTarget: (p) => p.sourceMilestone,
  }),
  resumeMilestoneProgression: kind<{ planId: string }>({
    feature: true,
    payload: Type.Object({ planId: PlanPart }),
    command: (target, feature, p) => ({
      action: 'resumeMilestoneProgression',
      at: at(target, feature),
      planId: p.planId,
    }),
    sameTarget: onlyOne,
  }),
  updateMilestoneStrategy: kind<Static<typeof UpdateStrategyPayload>>({
    feature: true,
    payload: UpdateStrategyPayload,
    command: (target, feature, { id, ...payload }) => ({
      action: 'updateMilestoneStrategy',
      at: at(target, feature),
      id,
      payload,
    }),
    sameTarget: (p) => p.id,
  }),
  changeReleasePlanSafeguard: kind<{ planId: string; safeguard: SafeguardInput }>({
    feature: true,
    payload: Type.Object({ planId: PlanPart, safeguard: CreateSafeguardBody }),
    command: (target, feature, p) => ({
      action: 'changeReleasePlanSafeguard',
      at: at(target, feature),
      planId: p.planId,
      payload: p.safeguard,
    }),
    sameTarget: onlyOne,
  }),
  deleteReleasePlanSafeguard: kind<{ planId: string; safeguardId: string }>({
    feature: true,
    payload: Type.Object({ planId: PlanPart, safeguardId: PlanPart }),
    command: (target, feature, p) => ({
      action: 'deleteReleasePlanSafeguard',
      at: at(target, feature),
      planId: p.planId,
      safeguardId: p.safeguardId,
    }),
    sameTarget: onlyOne,
  }),
  changeFeatureEnvSafeguard: kind<{ safeguard: SafeguardInput }>({
    feature: true,
    payload: Type.Object({ safeguard: CreateSafeguardBody }),
    command: (target, feature, p) => ({
      action: 'changeFeatureEnvSafeguard',
      at: at(target, feature),
      payload: p.safeguard,
    }),
    sameTarget: onlyOne,
  }),
  deleteFeatureEnvSafeguard: kind<{ safeguardId: string }>({
    feature: true,
    payload: Type.Object({ safeguardId: PlanPart }),
    command: (target, feature, p) => ({
      action: 'deleteFeatureEnvSafeguard',
      at: at(target, feature),
      safeguardId: p.safeguardId,
    }),
    sameTarget: onlyOne,
  }),
};
