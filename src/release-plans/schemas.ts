import { Type } from '@sinclair/typebox';
import { Nullable } from '../http/schemas.js';
import { MilestoneStrategySchema } from '../release-templates/schemas.js';
import { SafeguardSchema } from './safeguards/schemas.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const PlanEnvironmentParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  featureName: Type.String({ minLength: 1 }),
  environment: Type.String({ minLength: 1 }),
});

export const PlanParams = Type.Object({ ...PlanEnvironmentParams.properties, planId: Id });

export const PlanMilestoneParams = Type.Object({ ...PlanParams.properties, milestoneId: Id });

export const AddPlanBody = Type.Object({ templateId: Id });

const Time = Nullable(Type.String({ format: 'date-time' }));

export const PlanMilestoneSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sortOrder: Type.Integer(),
  releasePlanDefinitionId: Type.String({ description: 'The plan the milestone belongs to' }),
  startedAt: Time,
  transitionCondition: Nullable(Type.Object({ intervalMinutes: Type.Integer() })),
  progressionExecutedAt: Time,
  pausedAt: Time,
  strategies: Type.Array(MilestoneStrategySchema),
});

export const PlanSchema = Type.Object({
  id: Type.String(),
  discriminator: Type.Literal('plan'),
  name: Type.String(),
  description: Nullable(Type.String()),
  featureName: Type.String(),
  environment: Type.String(),
  createdByUserId: Nullable(Type.Integer()),
  createdAt: Type.String({ format: 'date-time' }),
  activeMilestoneId: Nullable(Type.String({ description: 'The milestone whose strategies are served' })),
  releasePlanTemplateId: Type.String(),
  milestones: Type.Array(PlanMilestoneSchema),
  safeguards: Type.Optional(Type.Array(SafeguardSchema, { description: 'Its safeguard, if it has one' })),
});

export const PlanList = Type.Array(PlanSchema);

export const ProgressionParams = Type.Object({ ...PlanEnvironmentParams.properties, sourceMilestoneId: Id });

export const ProgressionBody = Type.Object({
  targetMilestone: Id,
  transitionCondition: Type.Object({
    intervalMinutes: Type.Integer({ minimum: 1, maximum: 525_600, description: 'At most a year' }),
  }),
});

export const ProgressionSchema = Type.Object({
  sourceMilestone: Type.String(),
  targetMilestone: Type.String(),
  transitionCondition: Type.Object({ intervalMinutes: Type.Integer() }),
});

export const MilestoneStrategyParams = Type.Object({ ...PlanEnvironmentParams.properties, strategyId: Id });
