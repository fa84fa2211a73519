// Release templates, the release plans made from them on a flag's environment, and safeguards.

import { featurePath, seg } from './client';
import type { Constraint, Variant } from './types';

export interface MilestoneStrategy {
  id: string;
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: Variant[];
  segments: number[];
}

export interface TemplateMilestone {
  id: string;
  name: string;
  sortOrder: number;
  strategies: MilestoneStrategy[];
}

export interface ReleaseTemplate {
  id: string;
  name: string;
  description: string | null;
  /** The project it is offered in; null: every project. */
  project: string | null;
  createdAt: string;
  archivedAt: string | null;
  milestones: TemplateMilestone[];
}

export interface PlanMilestone extends TemplateMilestone {
  startedAt: string | null;
  transitionCondition: { intervalMinutes: number } | null;
  progressionExecutedAt: string | null;
  pausedAt: string | null;
}

export type TimeRange = 'hour' | 'day' | 'week' | 'month';
export type AggregationMode = 'rps' | 'count' | 'avg' | 'sum' | 'p50' | 'p95' | 'p99';

export interface SafeguardMetric {
  metricName: string;
  timeRange: TimeRange;
  aggregationMode: AggregationMode;
  labelSelectors: Record<string, string[]>;
}

export interface TriggerCondition {
  operator: '>' | '<';
  threshold: number;
}

/** What a safeguard is asked to watch: the body of its PUT. */
export interface SafeguardInput {
  impactMetric: SafeguardMetric;
  triggerCondition: TriggerCondition;
}

export interface Safeguard extends SafeguardInput {
  id: string;
  impactMetric: SafeguardMetric & { id: string };
  action:
    | { type: 'pauseReleasePlanProgressions'; id: string }
    | { type: 'disableFeatureEnvironment'; featureName: string; environment: string; project: string };
  /** When it last found its condition true; null while it holds. */
  triggeredAt: string | null;
}

export interface ReleasePlan {
  id: string;
  name: string;
  description: string | null;
  featureName: string;
  environment: string;
  activeMilestoneId: string | null;
  releasePlanTemplateId: string;
  milestones: PlanMilestone[];
  /** Until the server knows safeguards, it sends none. */
  safeguards?: Safeguard[];
}

export interface ImpactMetricInfo {
  name: string;
  help: string;
  displayName?: string;
  type: 'counter' | 'gauge' | 'histogram' | string;
}

export const TEMPLATES_PATH = '/api/admin/release-plan-templates';

/** The templates a project's flags may use: its own and those of no project. */
export const projectTemplatesPath = (project: string) =>
  `/api/admin/projects/${seg(project)}/release-templates?include=root`;

/** `…/features/<f>/environments/<e>`: where a flag environment's plan, progressions and safeguard hang. */
export const environmentPath = (project: string, feature: string, environment: string) =>
  `${featurePath(project, feature)}/environments/${seg(environment)}`;
