import type { Tag } from './types';

/** What one strategy SDKs are sent lets in, as the search tells it. */
export interface StrategyReach {
  name: string;
  /** Percent let in, for a rollout strategy. */
  rollout?: number;
  /** How many user ids `userWithId` lists. */
  users?: number;
  constraints: number;
  segments: number;
}

export interface FoundEnvironment {
  name: string;
  type: string;
  enabled: boolean;
  sortOrder: number;
  lastSeenAt: string | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
  enabledStrategies: StrategyReach[];
}

/** One flag of `/api/admin/search/features`. */
export interface FoundFlag {
  name: string;
  description: string | null;
  type: string;
  project: string;
  stale: boolean;
  createdAt: string;
  lastSeenAt: string | null;
  archivedAt: string | null;
  environments: FoundEnvironment[];
  tags?: Tag[];
  lifecycle?: { stage: string };
}

export interface FlagSearchAnswer {
  features: FoundFlag[];
  total: number;
}
