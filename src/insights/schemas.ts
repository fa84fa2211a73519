import { Type } from '@sinclair/typebox';
import { DefaultStrategySchema } from '../features/strategies/schemas.js';
import { Nullable, Timestamp } from '../http/schemas.js';

const Stats = Type.Object({
  avgTimeToProdCurrentWindow: Type.Number({
    description: 'Days to the live stage, features that reached it in the last 30 days',
  }),
  createdCurrentWindow: Type.Integer(),
  createdPastWindow: Type.Integer(),
  archivedCurrentWindow: Type.Integer(),
  archivedPastWindow: Type.Integer(),
  projectActivityCurrentWindow: Type.Integer({ description: 'Audit events in the last 30 days' }),
  projectActivityPastWindow: Type.Integer(),
  projectMembersAddedCurrentWindow: Type.Integer(),
});

const FeatureTypeCounts = Type.Array(Type.Object({ type: Type.String(), count: Type.Integer() }));

const OnboardingStatus = Type.Object({
  status: Type.Union([
    Type.Literal('onboarding-started'),
    Type.Literal('first-flag-created'),
    Type.Literal('onboarded'),
  ]),
  feature: Type.Optional(Type.String()),
});

const ProjectEnvironments = Type.Array(
  Type.Object({ environment: Type.String(), defaultStrategy: Type.Optional(DefaultStrategySchema) }),
);

const LeadTime = Type.Object({
  features: Type.Array(Type.Object({ name: Type.String(), timeToProduction: Type.Integer() })),
  projectAverage: Type.Number({ description: 'Days from creation to the live stage, on average' }),
});

const Settings = {
  name: Type.String(),
  description: Nullable(Type.String()),
  mode: Type.String(),
  defaultStickiness: Type.String(),
  featureLimit: Type.Null(),
  members: Type.Integer(),
  health: Type.Integer({ description: 'Deprecated: 100 less the technical debt' }),
  technicalDebt: Type.Integer({ description: 'Percent of live features stale or potentially stale' }),
  environments: ProjectEnvironments,
};

export const ProjectOverview = Type.Object({
  version: Type.Literal(1),
  ...Settings,
  featureNaming: Type.Object({ pattern: Type.Null(), example: Type.Null(), description: Type.Null() }),
  linkTemplates: Type.Array(Type.Object({ title: Nullable(Type.String()), urlTemplate: Type.String() })),
  featureTypeCounts: FeatureTypeCounts,
  favorite: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Nullable(Timestamp),
  onboardingStatus: OnboardingStatus,
  stats: Stats,
});

export const ProjectHealthReport = Type.Object({
  version: Type.Literal(1),
  ...Settings,
  features: Type.Array(Type.Unknown(), {
    description: 'The live features as the feature list shows them, with tags',
  }),
  activeCount: Type.Integer(),
  potentiallyStaleCount: Type.Integer(),
  staleCount: Type.Integer(),
});

const HealthCounts = Type.Object({
  rating: Type.Integer(),
  activeCount: Type.Integer(),
  potentiallyStaleCount: Type.Integer(),
  staleCount: Type.Integer(),
});

export const ProjectInsights = Type.Object({
  stats: Stats,
  featureTypeCounts: FeatureTypeCounts,
  health: HealthCounts,
  technicalDebt: HealthCounts,
  leadTime: LeadTime,
  members: Type.Object({ currentMembers: Type.Integer(), change: Type.Integer() }),
});

export const ProjectDora = LeadTime;

const StageSummary = Type.Object({ averageDays: Nullable(Type.Integer()), currentFlags: Type.Integer() });

export const ProjectStatus = Type.Object({
  resources: Type.Object({ members: Type.Integer(), apiTokens: Type.Integer(), segments: Type.Integer() }),
  activityCountByDate: Type.Array(Type.Object({ date: Type.String(), count: Type.Integer() })),
  health: Type.Object({ current: Type.Integer() }),
  technicalDebt: Type.Object({ current: Type.Integer() }),
  lifecycleSummary: Type.Object({
    initial: StageSummary,
    preLive: StageSummary,
    live: StageSummary,
    completed: StageSummary,
    archived: Type.Object({ currentFlags: Type.Integer(), last30Days: Type.Integer() }),
  }),
  staleFlags: Type.Object({ total: Type.Integer() }),
});

const FlagCreator = Type.Object({ id: Type.Integer(), name: Type.String() });
export const FlagCreators = Type.Array(FlagCreator);

export const FlagCreatorsQuery = Type.Object({
  q: Type.Optional(Type.String({ description: 'Part of the name, or the start of the username or email' })),
  offset: Type.Optional(
    Type.String({ description: 'How many creators to skip (0 unless a positive number)' }),
  ),
  limit: Type.Optional(
    Type.String({
      description: 'How many creators to answer, 1 to 10000 (50 unless a number in that range)',
    }),
  ),
});

export const FlagCreatorsPage = Type.Object({
  flagCreators: Type.Array(FlagCreator),
  total: Type.Integer({ description: 'How many creators match, over all pages' }),
});

const Owner = Type.Object({
  ownerType: Type.Union([Type.Literal('user'), Type.Literal('group'), Type.Literal('system')]),
  name: Type.Optional(Type.String()),
  email: Type.Optional(Nullable(Type.String())),
  imageUrl: Type.Optional(Nullable(Type.String())),
});

export const PersonalDashboard = Type.Object({
  projects: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      health: Type.Integer(),
      technicalDebt: Type.Integer(),
      memberCount: Type.Integer(),
      featureCount: Type.Integer(),
    }),
  ),
  flags: Type.Array(Type.Object({ name: Type.String(), project: Type.String(), type: Type.String() })),
  admins: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.Optional(Type.String()),
      username: Type.Optional(Type.String()),
      email: Type.Optional(Type.String()),
      imageUrl: Type.Optional(Type.String()),
    }),
  ),
  projectOwners: Type.Array(Owner),
});

export const PersonalProject = Type.Object({
  latestEvents: Type.Array(
    Type.Object({
      id: Type.Integer(),
      summary: Nullable(Type.String()),
      createdBy: Type.String(),
      createdByImageUrl: Type.String(),
      createdAt: Timestamp,
    }),
  ),
  onboardingStatus: OnboardingStatus,
  owners: Type.Array(Owner),
  roles: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), type: Type.String() })),
  insights: Type.Object({
    avgHealthCurrentWindow: Nullable(Type.Integer()),
    avgHealthPastWindow: Nullable(Type.Integer()),
    totalFlags: Type.Integer(),
    activeFlags: Type.Integer(),
    staleFlags: Type.Integer(),
    potentiallyStaleFlags: Type.Integer(),
    health: Type.Integer(),
    technicalDebt: Type.Integer(),
  }),
});
