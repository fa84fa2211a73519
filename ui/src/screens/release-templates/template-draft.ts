import type { ReleaseTemplate, TemplateMilestone } from '../../api/releases';
import type { Variant } from '../../api/types';
import { type ConstraintDraft, cleanConstraints } from '../../constraints/constraints-editor';
import { defaultParameters } from '../flag/strategy-parameters';

/** A milestone's strategy as the editor holds it. */
export interface StrategyDraft {
  /** Keeps each row's fields with it when another row is removed or moved. */
  key: string;
  name: string;
  title: string;
  parameters: Record<string, string>;
  constraints: ConstraintDraft[];
  segments: number[];
  /** Not edited here: a template's strategy keeps the variants it has. */
  variants: Variant[];
}

export interface MilestoneDraft {
  key: string;
  name: string;
  strategies: StrategyDraft[];
}

export interface TemplateDraft {
  name: string;
  description: string;
  milestones: MilestoneDraft[];
}

let counter = 0;
const nextKey = () => `k${++counter}`;

/** A gradual rollout whose group id is left empty: each plan fills in its flag's name. */
export function newStrategy(rollout = '100'): StrategyDraft {
  return {
    key: nextKey(),
    name: 'flexibleRollout',
    title: '',
    parameters: { ...defaultParameters('flexibleRollout', ''), rollout },
    constraints: [],
    segments: [],
    variants: [],
  };
}

export function newMilestone(name: string, rollout?: string): MilestoneDraft {
  return { key: nextKey(), name, strategies: [newStrategy(rollout)] };
}

function milestoneDraft(m: TemplateMilestone): MilestoneDraft {
  return {
    key: nextKey(),
    name: m.name,
    strategies: m.strategies.map((s) => ({
      key: nextKey(),
      name: s.name,
      title: s.title ?? '',
      parameters: s.parameters,
      constraints: s.constraints,
      segments: s.segments,
      variants: s.variants,
    })),
  };
}

export function templateDraft(template: ReleaseTemplate | null): TemplateDraft {
  if (!template) {
    return { name: '', description: '', milestones: [newMilestone('Milestone 1', '25')] };
  }
  return {
    name: template.name,
    description: template.description ?? '',
    milestones: [...template.milestones].sort((a, b) => a.sortOrder - b.sortOrder).map(milestoneDraft),
  };
}

/** The body of a create or a save: the milestones replace the template's whole, in the order shown. */
export function templateBody(draft: TemplateDraft) {
  return {
    name: draft.name.trim(),
    description: draft.description.trim() || null,
    milestones: draft.milestones.map((m, sortOrder) => ({
      name: m.name.trim(),
      sortOrder,
      strategies: m.strategies.map((s, order) => ({
        name: s.name,
        title: s.title.trim() || null,
        sortOrder: order,
        parameters: s.parameters,
        constraints: cleanConstraints(s.constraints),
        segments: s.segments,
        variants: s.variants,
      })),
    })),
  };
}

/** The list with the item at `index` moved by `by` places. */
export function moved<T>(list: T[], index: number, by: number): T[] {
  const order = [...list];
  const [item] = order.splice(index, 1);
  order.splice(index + by, 0, item!);
  return order;
}
