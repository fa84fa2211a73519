import { Type } from '@sinclair/typebox';
import { INT4_MAX, IntegerId, Nullable, Timestamp } from '../http/schemas.js';
import { SdkContext } from '../playground/schemas.js';
import { CHANGE_ACTIONS, type ChangeAction } from './kinds/kinds.js';
import { REQUESTED_STATES, type RequestedState } from './review.js';

/** One environment of a project, as `GET …/change-requests/config` lists it. */
export const ChangeRequestEnvironmentConfig = Type.Object({
  environment: Type.String(),
  type: Type.String({ description: "The environment's type" }),
  changeRequestEnabled: Type.Boolean(),
  requiredApprovals: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Approvals a change request needs before it can be applied; null where not enabled',
  }),
});

export const ChangeRequestConfigList = Type.Array(ChangeRequestEnvironmentConfig);

export const ChangeRequestConfigBody = Type.Object({
  changeRequestsEnabled: Type.Boolean(),
  requiredApprovals: Type.Optional(
    Type.Integer({ description: 'Taken as 1 below 1 and as 10 above 10, as in Unleash; 1 when left out' }),
  ),
});

export const ChangeRequestParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  id: IntegerId,
});

export const ChangeParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  id: IntegerId,
  changeId: IntegerId,
});

export const ChangeBody = Type.Object({
  feature: Type.Optional(
    Nullable(
      Type.String({ minLength: 1, maxLength: 100, description: 'The flag; none for a segment change' }),
    ),
  ),
  action: Type.Unsafe<ChangeAction>({ type: 'string', enum: CHANGE_ACTIONS }),
  // An object, or a list (`reorderStrategy`): each action's own schema checks it.
  payload: Type.Optional(
    Type.Unsafe<Record<string, unknown>>({
      type: ['object', 'array'],
      description: "The change's settings; see the action",
    }),
  ),
});

export const ChangesBody = Type.Union([ChangeBody, Type.Array(ChangeBody, { minItems: 1, maxItems: 100 })], {
  description: 'One change, or a list of them',
});

export const StateBody = Type.Object({
  state: Type.Unsafe<RequestedState>({ type: 'string', enum: [...REQUESTED_STATES] }),
  comment: Type.Optional(Type.String({ maxLength: 10_000 })),
  scheduledAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'With `Scheduled`: when to apply the request' }),
  ),
});

export const TitleBody = Type.Object({ title: Type.String({ minLength: 1, maxLength: 255 }) });

export const CommentBody = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 10_000, pattern: '\\S' }),
});

export const ReviewersBody = Type.Object({
  reviewers: Type.Array(IntegerId, {
    maxItems: 10,
    description: 'User ids; the list replaces the one before',
  }),
});

const UserSummary = Type.Object({
  id: Nullable(Type.Integer()),
  username: Nullable(Type.String()),
  imageUrl: Nullable(Type.String()),
});

const ChangeSchema = Type.Object({
  id: Type.Integer(),
  action: Type.String(),
  payload: Type.Unknown({ description: 'An object, or a list (`reorderStrategy`)' }),
  conflict: Type.Optional(Type.String({ description: 'Why it can no longer be applied as reviewed' })),
  createdAt: Timestamp,
  createdBy: UserSummary,
});

const Review = Type.Object({ createdAt: Timestamp, createdBy: UserSummary });

export const ChangeRequestSchema = Type.Object({
  id: Type.Integer(),
  title: Type.Optional(Type.String()),
  project: Type.String(),
  environment: Type.String(),
  minApprovals: Type.Integer(),
  state: Type.String(),
  stateTimestamps: Type.Record(Type.String(), Type.String()),
  createdAt: Timestamp,
  createdBy: UserSummary,
  features: Type.Array(
    Type.Object({
      name: Type.String(),
      conflict: Type.Optional(Type.String()),
      changes: Type.Array(ChangeSchema),
    }),
  ),
  segments: Type.Array(Type.Composite([ChangeSchema, Type.Object({ name: Type.String() })])),
  approvals: Type.Array(Review),
  rejections: Type.Array(Review),
  comments: Type.Array(
    Type.Object({ id: Type.Integer(), text: Type.String(), createdAt: Timestamp, createdBy: UserSummary }),
  ),
  schedule: Type.Optional(
    Type.Object({
      status: Type.String({ description: '`pending`, `suspended` or `failed`' }),
      scheduledAt: Timestamp,
      reason: Type.Optional(Type.String()),
      failureReason: Type.Optional(Type.String({ description: 'The same as `reason`, for older clients' })),
    }),
  ),
});

/** Strings or repeated: `?feature=a&feature=b`. */
const OneOrMore = Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }));

export const ScheduledQuery = Type.Object({
  feature: OneOrMore,
  strategyId: OneOrMore,
  variantForFlag: OneOrMore,
});

export const ScheduledList = Type.Array(
  Type.Object({ id: Type.Integer(), environment: Type.String(), title: Type.Optional(Type.String()) }),
);

export const ChangeRequestList = Type.Array(ChangeRequestSchema);

export const Reviewers = Type.Object({
  reviewers: Type.Array(
    Type.Object({
      id: Type.Integer(),
      email: Nullable(Type.String()),
      name: Nullable(Type.String()),
      username: Nullable(Type.String()),
      imageUrl: Nullable(Type.String()),
    }),
  ),
});

export const ChangeRequestCounts = Type.Object({
  applied: Type.Integer(),
  approved: Type.Integer(),
  rejected: Type.Integer(),
  scheduled: Type.Integer(),
  reviewRequired: Type.Integer(),
  total: Type.Integer(),
});

export const FeatureParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  featureName: Type.String({ minLength: 1 }),
});

export const ReviewerParams = Type.Object({
  projectId: Type.String({ minLength: 1 }),
  environment: Type.String({ minLength: 1 }),
});

export const SearchQuery = Type.Object({
  createdBy: Type.Optional(IntegerId),
  requestedApproverId: Type.Optional(IntegerId),
  state: Type.Optional(
    Type.Unsafe<'IS:open' | 'IS:closed'>({ type: 'string', enum: ['IS:open', 'IS:closed'] }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: INT4_MAX, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
});

export const SearchResult = Type.Object({
  changeRequests: Type.Array(
    Type.Object({
      id: Type.Integer(),
      title: Type.Optional(Type.String()),
      project: Type.String(),
      environment: Type.String(),
      state: Type.String(),
      createdAt: Timestamp,
      createdBy: UserSummary,
      features: Type.Array(Type.String()),
      segments: Type.Array(Type.String()),
    }),
  ),
  total: Type.Integer(),
});

export const PreviewParams = Type.Object({ id: IntegerId });

export const PreviewBody = Type.Object({ context: SdkContext });
