import type { AppContext } from '../../app-context.js';

/**
 * What a change's target was when the change was added: a strategy, a segment or an environment's
 * variants as their JSON. Shown beside the change (what it changes from), and compared with the
 * target now: a target that changed or went since is a conflict the request cannot be applied with.
 */
export type Snapshot = Record<string, unknown> | null;

export function strategySnapshot(ctx: AppContext, id: string): Snapshot {
  const found = ctx.model.strategy(id);
  if (!found) return null;
  const { name, title, disabled, parameters, constraints, variants, segments, sortOrder } = found.strategy;
  return { id, name, title, disabled, parameters, constraints, variants, segments, sortOrder };
}

export function variantsSnapshot(ctx: AppContext, feature: string, environment: string): Snapshot {
  const state = ctx.model.feature(feature)?.environments.find((e) => e.name === environment);
  return state ? { variants: state.variants } : null;
}

export function segmentSnapshot(ctx: AppContext, id: number): Snapshot {
  const segment = ctx.model.segment(id);
  if (!segment) return null;
  const { name, description, project, constraints } = segment;
  return { id, name, description, project, constraints };
}

/** JSON text with every object's keys in order: two snapshots of one state compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
