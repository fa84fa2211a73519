/** The evaluation context an SDK or the frontend API passes in. */
export interface Context {
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  environment?: string;
  appName?: string;
  currentTime?: string | Date;
  properties?: Record<string, string | undefined>;
  [field: string]: unknown;
}

export interface Constraint {
  contextName: string;
  operator: string;
  values?: string[];
  value?: string;
  inverted?: boolean;
  caseInsensitive?: boolean;
}

export interface Payload {
  type: string;
  value: string;
}

export interface Override {
  contextName: string;
  values: string[];
}

export interface VariantDefinition {
  name: string;
  weight: number;
  weightType?: string;
  stickiness?: string;
  payload?: Payload;
  overrides?: Override[];
}

export interface StrategyDefinition {
  id?: string;
  name: string;
  title?: string | null;
  /** Never sent to SDKs; the playground shows it unevaluated. */
  disabled?: boolean;
  parameters?: Record<string, unknown>;
  constraints?: Constraint[];
  segments?: number[];
  variants?: VariantDefinition[];
}

export interface Dependency {
  feature: string;
  enabled?: boolean;
  variants?: string[];
}

/** A feature as the client API serves it for one environment. */
export interface ClientFeature {
  name: string;
  enabled: boolean;
  strategies?: StrategyDefinition[];
  variants?: VariantDefinition[];
  dependencies?: Dependency[];
  impressionData?: boolean;
}

export interface Segment {
  id: number;
  constraints: Constraint[];
}

export interface Variant {
  name: string;
  enabled: boolean;
  payload?: Payload;
}

export const DISABLED_VARIANT: Variant = { name: 'disabled', enabled: false };
