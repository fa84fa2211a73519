import { Type } from '@sinclair/typebox';
import { Event } from '../events/schemas.js';
import { Nullable, Timestamp } from '../http/schemas.js';

const IS = '^(IS|IS_NOT|IS_ANY_OF|IS_NONE_OF):';
const INCLUDE = '^(INCLUDE|DO_NOT_INCLUDE|INCLUDE_ALL_OF|INCLUDE_ANY_OF|EXCLUDE_IF_ANY_OF|EXCLUDE_ALL):';
const DAY = '^(IS_BEFORE|IS_ON_OR_AFTER):\\d{4}-\\d{2}-\\d{2}$';
const text = (pattern: string, description: string) =>
  Type.Optional(Type.String({ pattern, maxLength: 1000, description }));

/** Where a page starts and how long it is, as both searches take them. */
const paging = (what: string) => ({
  offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
  limit: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 50,
    description: `How many ${what} a page holds`,
  }),
});

export const FeatureSearchQuery = Type.Object({
  query: Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        'Words (comma-separated, any one) found in the name, the description or a tag `type:value`',
    }),
  ),
  project: text(`${IS}.*$`, 'Projects, e.g. `IS:default` or `IS_ANY_OF:a,b`'),
  state: text(`${IS}.*$`, '`active`, `stale` or `potentially-stale`'),
  lifecycle: text(`${IS}.*$`, 'Lifecycle stages: `initial`, `pre-live`, `live`, `completed`, `archived`'),
  type: text(`${IS}.*$`, 'Feature types, e.g. `IS:release`'),
  createdBy: text(`${IS}.*$`, 'Ids of the users who created the features (-42: an API token)'),
  tag: text(
    `${INCLUDE}[^:,]+:[^,]+(,\\s*[^:,]+:[^,]+)*$`,
    'Tags as `type:value`, e.g. `INCLUDE:simple:blue`',
  ),
  segment: text(`${INCLUDE}.*$`, 'Segment names, e.g. `INCLUDE:beta-users`'),
  status: Type.Optional(
    Type.Array(Type.String({ pattern: '^[^:]+:(enabled|disabled)$', maxLength: 200 }), {
      maxItems: 100,
      description: 'Environment states such as `production:enabled`; a feature in any one of them matches',
    }),
  ),
  favorite: text(
    '^(IS|IS_ANY_OF):(true|false)(,(true|false))*$',
    'Only your favorites (`IS:true`) or others',
  ),
  archived: text(
    '^IS:(true|false)$',
    '`IS:true`: only archived features; `IS:false` (default): only live ones',
  ),
  createdAt: text(DAY, 'Created before or on/after a day (UTC)'),
  lastSeenAt: text(DAY, 'Last seen by an SDK before or on/after a day (UTC)'),
  sortBy: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        '`name`, `type`, `project`, `stale`, `createdAt` (the default, also for names not listed), `lastSeenAt` or `lifecycle`',
    }),
  ),
  sortOrder: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' }),
  favoritesFirst: Type.Boolean({ default: false, description: 'Your favorites before the rest' }),
  ...paging('features'),
});

const SearchEnvironment = Type.Object({
  name: Type.String(),
  environment: Type.String(),
  type: Type.String(),
  enabled: Type.Boolean(),
  sortOrder: Type.Integer(),
  variantCount: Type.Integer(),
  lastSeenAt: Nullable(Timestamp),
  hasStrategies: Type.Boolean(),
  hasEnabledStrategies: Type.Boolean(),
  enabledStrategies: Type.Array(
    Type.Object({
      name: Type.String(),
      rollout: Type.Optional(Type.Number({ description: 'Percent let in, for a rollout strategy' })),
      users: Type.Optional(Type.Integer({ description: 'User ids listed, for `userWithId`' })),
      constraints: Type.Integer(),
      segments: Type.Integer(),
    }),
    {
      description:
        'Flagpole: what each strategy SDKs are sent lets in, so that a list can say who gets the feature',
    },
  ),
});

export const FeatureSearchResult = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  type: Type.String(),
  project: Type.String(),
  stale: Type.Boolean(),
  favorite: Type.Boolean(),
  impressionData: Type.Boolean(),
  createdAt: Timestamp,
  lastSeenAt: Nullable(Timestamp),
  archivedAt: Nullable(Timestamp),
  dependencyType: Nullable(Type.Union([Type.Literal('parent'), Type.Literal('child')])),
  environments: Type.Array(SearchEnvironment),
  segments: Type.Array(Type.String()),
  tags: Type.Optional(Type.Array(Type.Object({ type: Type.String(), value: Type.String() }))),
  lifecycle: Type.Optional(
    Type.Object({ stage: Type.String(), status: Type.Optional(Type.String()), enteredStageAt: Timestamp }),
  ),
  createdBy: Type.Object({ id: Type.Integer(), name: Type.String(), imageUrl: Type.String() }),
});

export const FeatureSearchAnswer = Type.Object({
  features: Type.Array(FeatureSearchResult),
  total: Type.Integer(),
});

const ONE_OF = '^(IS|IS_ANY_OF):';

export const EventSearchQuery = Type.Object({
  query: Type.Optional(Type.String({ maxLength: 1000, description: 'Text found in the event’s data' })),
  id: text(`${ONE_OF}.*$`, 'Event ids, e.g. `IS_ANY_OF:12,13`'),
  feature: text(`${ONE_OF}.*$`, 'Feature names'),
  project: text(`${ONE_OF}.*$`, 'Projects'),
  type: text(`${ONE_OF}.*$`, 'Event types, e.g. `IS:feature-created`'),
  createdBy: text(`${ONE_OF}.*$`, 'Ids of the users who made the changes'),
  environment: text(`${ONE_OF}.*$`, 'Environments'),
  from: text('^IS:\\d{4}-\\d{2}-\\d{2}$', 'Events of this day (UTC) and later'),
  to: text('^IS:\\d{4}-\\d{2}-\\d{2}$', 'Events of this day (UTC) and earlier'),
  ...paging('events'),
});

export const EventSearchAnswer = Type.Object({
  events: Type.Array(Event),
  total: Type.Integer(),
});

export const EventCreators = Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }));
