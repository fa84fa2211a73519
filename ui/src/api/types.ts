// The shapes of Flagpole's answers the UI reads (see /docs for every field).

export interface User {
  id: number;
  name: string | null;
  email: string | null;
  username: string | null;
  rootRole: number | null;
  seenAt: string | null;
  createdAt: string | null;
}

export interface Grant {
  permission: string;
  project?: string;
  environment?: string;
}

export interface CurrentUser {
  user: User;
  permissions: Grant[];
}

export interface Banner {
  id: number;
  message: string;
  enabled: boolean;
  variant: 'info' | 'warning' | 'error' | 'success';
  sticky: boolean;
  icon: string | null;
  link: string | null;
  linkText: string | null;
  dialogTitle: string | null;
  dialog: string | null;
  createdAt: string;
}

export interface Project {
  id: string;
  name: string;
  description: string | null;
  featureCount: number;
  memberCount: number;
  health: number;
  createdAt: string;
}

export interface Environment {
  name: string;
  type: string;
  enabled: boolean;
  sortOrder: number;
}

export interface Tag {
  type: string;
  value: string;
}

export interface FeatureEnvironmentSummary {
  name: string;
  type: string;
  enabled: boolean;
  sortOrder: number;
  variantCount: number;
  lastSeenAt: string | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
}

export interface FeatureSummary {
  name: string;
  description: string | null;
  type: string;
  project: string;
  stale: boolean;
  impressionData: boolean;
  archived: boolean;
  archivedAt: string | null;
  createdAt: string;
  lastSeenAt: string | null;
  environments: FeatureEnvironmentSummary[];
  tags?: Tag[];
}

export type Operator =
  | 'IN'
  | 'NOT_IN'
  | 'STR_CONTAINS'
  | 'STR_STARTS_WITH'
  | 'STR_ENDS_WITH'
  | 'NUM_EQ'
  | 'NUM_GT'
  | 'NUM_GTE'
  | 'NUM_LT'
  | 'NUM_LTE'
  | 'DATE_AFTER'
  | 'DATE_BEFORE'
  | 'SEMVER_EQ'
  | 'SEMVER_GT'
  | 'SEMVER_LT'
  | 'SEMVER_GTE'
  | 'SEMVER_LTE';

export interface Constraint {
  contextName: string;
  operator: Operator;
  caseInsensitive?: boolean;
  inverted?: boolean;
  values?: string[];
  value?: string;
}

export interface Payload {
  type: 'json' | 'csv' | 'string' | 'number';
  value: string;
}

export interface Variant {
  name: string;
  weight: number;
  weightType: 'variable' | 'fix';
  stickiness: string;
  payload?: Payload;
  overrides?: { contextName: string; values: string[] }[];
}

export interface Strategy {
  id: string;
  name: string;
  title: string | null;
  disabled: boolean | null;
  sortOrder: number;
  parameters: Record<string, string>;
  constraints: Constraint[];
  segments: number[];
  variants: Variant[];
}

export interface FeatureEnvironment extends FeatureEnvironmentSummary {
  strategies: Strategy[];
  variants: Variant[];
}

/** A child's condition on its parent: the parent on (with one of `variants`, when named) or off. */
export interface Dependency {
  feature: string;
  enabled: boolean;
  variants: string[];
}

export interface FeatureLink {
  id: string;
  url: string;
  title: string | null;
}

export interface Feature extends Omit<FeatureSummary, 'environments'> {
  environments: FeatureEnvironment[];
  links?: FeatureLink[];
  /** Its parent, if it has one (at most one). */
  dependencies: Dependency[];
  /** The flags whose parent it is. */
  children: string[];
}

export interface StrategyParameter {
  name: string;
  type: string;
  description?: string;
  required?: boolean;
}

export interface StrategyType {
  name: string;
  displayName?: string | null;
  title?: string | null;
  description: string | null;
  /** False for the built-in types, which cannot be changed or deleted. */
  editable?: boolean;
  deprecated?: boolean;
  parameters: StrategyParameter[];
}

export interface Segment {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
  createdBy: string | null;
  createdAt: string;
}

export interface LegalValue {
  value: string;
  description?: string;
}

export interface ContextField {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
  createdAt: string | null;
}

export interface FeatureType {
  id: string;
  name: string;
  description: string;
  lifetimeDays: number | null;
}

export interface AuditEvent {
  id: number;
  type: string;
  createdBy: string;
  createdAt: string;
  project: string | null;
  featureName: string | null;
  environment: string | null;
  data: unknown;
  preData: unknown;
}

/** A page of the event search, and how many events it finds in all. */
export interface EventSearchAnswer {
  events: AuditEvent[];
  total: number;
}

export interface MetricsBucket {
  featureName: string;
  appName: string;
  environment: string;
  timestamp: string;
  yes: number;
  no: number;
  variants?: Record<string, number>;
}
