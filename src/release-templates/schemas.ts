import { Type } from '@sinclair/typebox';
import { StoredConstraint } from '../constraints/schemas.js';
import { CreateStrategyBody } from '../features/strategies/schemas.js';
import { StoredVariant } from '../features/variants/schemas.js';
import { Nullable } from '../http/schemas.js';

const MAX_MILESTONES = 50;
const MAX_STRATEGIES = 30;

const SortOrder = Type.Integer({ minimum: -2147483648, maximum: 2147483647 });

/** A milestone's strategy as sent: a strategy's fields; `strategyName` is Unleash's older name for `name`. */
export const MilestoneStrategyBody = Type.Object({
  ...CreateStrategyBody.properties,
  name: Type.Optional(CreateStrategyBody.properties.name),
  strategyName: Type.Optional(CreateStrategyBody.properties.name),
  id: Type.Optional(Type.String({ maxLength: 100 })),
  milestoneId: Type.Optional(Type.String({ maxLength: 100 })),
});

export const MilestoneBody = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 100 })),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  sortOrder: Type.Optional(SortOrder),
  releasePlanDefinitionId: Type.Optional(Type.String({ maxLength: 100 })),
  strategies: Type.Optional(Type.Array(MilestoneStrategyBody, { maxItems: MAX_STRATEGIES })),
});

export const TemplateBody = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 100 })),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  milestones: Type.Optional(Type.Array(MilestoneBody, { maxItems: MAX_MILESTONES })),
});

export const TemplateParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const MilestoneParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  milestoneId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const MilestoneStrategyParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  milestoneId: Type.String({ minLength: 1, maxLength: 100 }),
  strategyId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const MilestoneStrategySchema = Type.Object({
  id: Type.String(),
  milestoneId: Type.String(),
  sortOrder: Type.Integer(),
  name: Type.String(),
  strategyName: Type.String({ description: 'The same as `name`, for older clients' }),
  title: Nullable(Type.String()),
  disabled: Type.Boolean(),
  parameters: Type.Record(Type.String(), Type.String()),
  constraints: Type.Array(StoredConstraint),
  variants: Type.Array(StoredVariant),
  segments: Type.Array(Type.Integer()),
});

export const MilestoneSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sortOrder: Type.Integer(),
  releasePlanDefinitionId: Type.String({ description: 'The template the milestone belongs to' }),
  strategies: Type.Array(MilestoneStrategySchema),
});

export const TemplateSchema = Type.Object({
  id: Type.String(),
  discriminator: Type.Literal('template'),
  name: Type.String(),
  description: Nullable(Type.String()),
  project: Nullable(Type.String({ description: 'The project it is offered in; null: every project' })),
  createdByUserId: Nullable(Type.Integer()),
  createdAt: Type.String({ format: 'date-time' }),
  archivedAt: Nullable(Type.String({ format: 'date-time' })),
  milestones: Type.Array(MilestoneSchema),
});

export const TemplateList = Type.Array(TemplateSchema);

export const ProjectTemplateParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  id: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ProjectTemplatesQuery = Type.Object({
  include: Type.Optional(
    Type.Literal('root', { description: '`root`: the templates of no project as well' }),
  ),
});
