import { type TSchema, Type } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import type { Command } from '../../changes/commands.js';
import { UpdateStrategyBody } from '../../features/strategies/schemas.js';
import type { Snapshot } from './snapshots.js';

/** Where a change request's changes go: one environment of one project. */
export interface Target {
  project: string;
  environment: string;
}

/**
 * One kind of change a request can hold, named as Unleash names it: its payload, the command that
 * carries it out, what of its target it keeps to show a later change of it as a conflict, and the
 * key under which a second change of the same target replaces the first (none: each one adds).
 */
export interface ChangeKind<P> {
  /** Whether it is about a flag (every change but a segment's). */
  feature: boolean;
  payload: TSchema;
  command: (target: Target, feature: string, payload: P) => Command;
  snapshot?: (ctx: AppContext, target: Target, feature: string, payload: P) => Snapshot;
  sameTarget?: (payload: P) => string;
}

export function kind<P>(k: ChangeKind<P>): ChangeKind<P> {
  return k;
}

export const at = (target: Target, feature: string) => ({
  project: target.project,
  featureName: feature,
  environment: target.environment,
});

export const onlyOne = () => '';

export const StrategyId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const UpdateStrategyPayload = Type.Composite([UpdateStrategyBody, StrategyId]);
