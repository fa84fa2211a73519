import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { AppContext } from '../../app-context.js';
import type { Command } from '../../changes/commands.js';
import { DependencyBody } from '../../features/core/schemas.js';
import { CreateStrategyBody, SortOrderBody } from '../../features/strategies/schemas.js';
import { VariantList } from '../../features/variants/schemas.js';
import { IntegerId } from '../../http/schemas.js';
import { SegmentBody } from '../../segments/schemas.js';
import {
  at,
  type ChangeKind,
  kind,
  onlyOne,
  StrategyId,
  type Target,
  UpdateStrategyPayload,
} from './kind.js';
import { RELEASE_KINDS } from './release-kinds.js';
import { type Snapshot, segmentSnapshot, strategySnapshot, variantsSnapshot } from './snapshots.js';

export type { Target } from './kind.js';

/** A change as stored: the action, the flag it is about (none for a segment) and its payload. */
export interface StoredChange {
  feature: string | null;
  action: ChangeAction;
  payload: Record<string, unknown>;
}

const NoPayload = Type.Object({});
const UpdateSegmentPayload = Type.Composite([SegmentBody, Type.Object({ id: IntegerId })]);

export const CHANGE_KINDS = {
  updateEnabled: kind<{ enabled: boolean; shouldActivateDisabledStrategies?: boolean }>({
    feature: true,
    payload: Type.Object({
      enabled: Type.Boolean(),
      shouldActivateDisabledStrategies: Type.Optional(Type.Boolean()),
    }),
    command: (target, feature, p) => ({
      action: 'updateEnabled',
      at: at(target, feature),
      enabled: p.enabled,
      ...(p.shouldActivateDisabledStrategies !== undefined
        ? { shouldActivateDisabledStrategies: p.shouldActivateDisabledStrategies }
        : {}),
    }),
    sameTarget: onlyOne,
  }),
  addStrategy: kind<Static<typeof CreateStrategyBody>>({
    feature: true,
    payload: CreateStrategyBody,
    command: (target, feature, payload) => ({ action: 'addStrategy', at: at(target, feature), payload }),
  }),
  updateStrategy: kind<Static<typeof UpdateStrategyPayload>>({
    feature: true,
    payload: UpdateStrategyPayload,
    command: (target, feature, { id, ...payload }) => ({
      action: 'updateStrategy',
      at: at(target, feature),
      id,
      payload,
    }),
    snapshot: (ctx, _target, _feature, p) => strategySnapshot(ctx, p.id),
    sameTarget: (p) => p.id,
  }),
  deleteStrategy: kind<Static<typeof StrategyId>>({
    feature: true,
    payload: StrategyId,
    command: (target, feature, p) => ({ action: 'deleteStrategy', at: at(target, feature), id: p.id }),
    snapshot: (ctx, _target, _feature, p) => strategySnapshot(ctx, p.id),
    sameTarget: (p) => p.id,
  }),
  reorderStrategy: kind<Static<typeof SortOrderBody>>({
    feature: true,
    payload: SortOrderBody,
    command: (target, feature, payload) => ({ action: 'reorderStrategy', at: at(target, feature), payload }),
    sameTarget: onlyOne,
  }),
  patchVariant: kind<{ variants: Static<typeof VariantList> }>({
    feature: true,
    payload: Type.Object({ variants: VariantList }),
    command: (target, feature, p) => ({
      action: 'patchVariant',
      at: at(target, feature),
      variants: p.variants,
    }),
    snapshot: (ctx, target, feature) => variantsSnapshot(ctx, feature, target.environment),
    sameTarget: onlyOne,
  }),
  archiveFeature: kind<Record<string, never>>({
    feature: true,
    payload: NoPayload,
    command: (target, feature) => ({ action: 'archiveFeature', project: target.project, feature }),
    sameTarget: onlyOne,
  }),
  addDependency: kind<Static<typeof DependencyBody>>({
    feature: true,
    payload: DependencyBody,
    command: (target, feature, payload) => ({
      action: 'addDependency',
      project: target.project,
      feature,
      payload,
    }),
    sameTarget: onlyOne,
  }),
  // A flag has one parent at most: removing "the" dependency removes it.
  deleteDependency: kind<Record<string, never>>({
    feature: true,
    payload: NoPayload,
    command: (target, feature) => ({ action: 'deleteDependencies', project: target.project, feature }),
    sameTarget: onlyOne,
  }),
  ...RELEASE_KINDS,
  updateSegment: kind<Static<typeof UpdateSegmentPayload>>({
    feature: false,
    payload: UpdateSegmentPayload,
    command: (_target, _feature, { id, ...payload }) => ({ action: 'updateSegment', id, payload }),
    snapshot: (ctx, _target, _feature, p) => segmentSnapshot(ctx, p.id),
    sameTarget: (p) => String(p.id),
  }),
  deleteSegment: kind<{ id: number }>({
    feature: false,
    payload: Type.Object({ id: IntegerId }),
    command: (_target, _feature, p) => ({ action: 'deleteSegment', id: p.id }),
    snapshot: (ctx, _target, _feature, p) => segmentSnapshot(ctx, p.id),
    sameTarget: (p) => String(p.id),
  }),
};

export type ChangeAction = keyof typeof CHANGE_KINDS;
export const CHANGE_ACTIONS = Object.keys(CHANGE_KINDS) as ChangeAction[];

// biome-ignore lint/suspicious/noExplicitAny: the kinds are looked up by an action read as text
function kindOf(action: ChangeAction): ChangeKind<any> {
  return CHANGE_KINDS[action];
}

export function isFeatureChange(action: ChangeAction): boolean {
  return kindOf(action).feature;
}

export function payloadSchemaOf(action: ChangeAction): TSchema {
  return kindOf(action).payload;
}

/** The command that applies a stored change in the request's environment. */
export function commandOf(target: Target, change: StoredChange): Command {
  return kindOf(change.action).command(target, change.feature ?? '', change.payload);
}

/** What the change's target is now, as the change will keep it (null: nothing to keep). */
export function snapshotOf(ctx: AppContext, target: Target, change: StoredChange): Snapshot {
  return kindOf(change.action).snapshot?.(ctx, target, change.feature ?? '', change.payload) ?? null;
}

/** The key under which a later change replaces this one in the same request; undefined: it never is. */
export function targetKeyOf(change: StoredChange): string | undefined {
  const same = kindOf(change.action).sameTarget?.(change.payload);
  return same === undefined ? undefined : `${change.action}\u0000${change.feature ?? ''}\u0000${same}`;
}
