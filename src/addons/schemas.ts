import { Type } from '@sinclair/typebox';
import { IntegerId, Nullable, Timestamp } from '../http/schemas.js';

export const AddonParams = Type.Object({ id: IntegerId });

const Names = (description: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000, description }));

/** Unleash's `addonCreateUpdateSchema`: a create, and an update that replaces the whole integration. */
export const AddonBody = Type.Object({
  provider: Type.String({ maxLength: 255, description: 'The kind of integration: `webhook`' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  enabled: Type.Boolean(),
  parameters: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 100_000 }), {
    maxProperties: 20,
    description:
      "The provider's parameters, as strings. Sensitive ones read back as `*****`; sent back as " +
      '`*****`, they keep the value stored.',
  }),
  events: Type.Array(Type.String({ maxLength: 255 }), {
    maxItems: 1000,
    description: 'The event types it listens to',
  }),
  projects: Names('Only events of these projects; empty or `*`: every project'),
  environments: Names('Only events of these environments; empty or `*`: every environment'),
});

export const AddonSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  provider: Type.String(),
  description: Nullable(Type.String()),
  enabled: Type.Boolean(),
  parameters: Type.Record(Type.String(), Type.String()),
  events: Type.Array(Type.String()),
  projects: Type.Array(Type.String()),
  environments: Type.Array(Type.String()),
  createdAt: Timestamp,
});

const ProviderSchema = Type.Object({
  name: Type.String(),
  displayName: Type.String(),
  description: Type.String(),
  documentationUrl: Type.String(),
  howTo: Type.String(),
  parameters: Type.Array(
    Type.Object({
      name: Type.String(),
      displayName: Type.String(),
      type: Type.String(),
      description: Type.String(),
      placeholder: Type.Optional(Type.String()),
      required: Type.Boolean(),
      sensitive: Type.Boolean(),
    }),
  ),
  events: Type.Array(Type.String()),
});

export const AddonList = Type.Object({
  addons: Type.Array(AddonSchema),
  providers: Type.Array(ProviderSchema),
});

export const IntegrationEventsQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'At most this many (1 to 1000); 50 by default' })),
  offset: Type.Optional(Type.String({ description: 'Skip this many; 0 by default' })),
});

const EventSchema = Type.Object({
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

/** Unleash's `integrationEventsSchema`: the deliveries of one integration, newest first. */
export const IntegrationEvents = Type.Object({
  integrationEvents: Type.Array(
    Type.Object({
      id: Type.String({ pattern: '^[0-9]+$' }),
      integrationId: Type.Integer(),
      createdAt: Timestamp,
      state: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
      stateDetails: Type.String(),
      event: EventSchema,
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
});
