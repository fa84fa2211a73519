import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../http/schemas.js';

/** Where a page of events starts and how long it is. */
const paging = {
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
};

export const EventQuery = Type.Object({
  type: Type.Optional(Type.String({ description: 'Only events of this type, e.g. `feature-created`' })),
  project: Type.Optional(Type.String()),
  feature: Type.Optional(Type.String({ description: 'Only events of this feature' })),
  ...paging,
});

export const FeatureEventQuery = Type.Object(paging);

export const Event = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  createdBy: Type.String(),
  createdByUserId: Nullable(Type.Integer()),
  createdAt: Timestamp,
  project: Nullable(Type.String()),
  featureName: Nullable(Type.String()),
  environment: Nullable(Type.String()),
  data: Type.Unknown(),
  preData: Type.Unknown(),
});

export const EventList = Type.Object({
  version: Type.Literal(1),
  events: Type.Array(Event),
  totalEvents: Type.Integer(),
});

export const FeatureEvents = Type.Object({
  version: Type.Literal(1),
  toggleName: Type.String(),
  events: Type.Array(Event),
  totalEvents: Type.Integer(),
});
