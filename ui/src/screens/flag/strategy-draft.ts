import type { Strategy } from '../../api/types';
import { type ConstraintDraft, cleanConstraints } from '../../constraints/constraints-editor';
import { defaultParameters } from './strategy-parameters';
import { type VariantDraft, draftOf as variantDraftOf, variantOf } from './variant-fields';

/** A strategy as its editor holds it. */
export interface Draft {
  name: string;
  title: string;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: ConstraintDraft[];
  segments: number[];
  variants: VariantDraft[];
}

export function draftOf(strategy: Strategy | null, feature: string): Draft {
  if (!strategy) {
    return {
      name: 'flexibleRollout',
      title: '',
      disabled: false,
      parameters: defaultParameters('flexibleRollout', feature),
      constraints: [],
      segments: [],
      variants: [],
    };
  }
  return {
    name: strategy.name,
    title: strategy.title ?? '',
    disabled: strategy.disabled ?? false,
    parameters: strategy.parameters,
    constraints: strategy.constraints,
    segments: strategy.segments,
    variants: (strategy.variants ?? []).map(variantDraftOf),
  };
}

/**
 * The title as typed; an untouched empty one goes back as it came (none). The server keeps the
 * title it has when sent none, so an emptied one is sent empty.
 */
function titleToSend(typed: string, strategy: Strategy | null): string | null {
  if (typed) return typed;
  return strategy?.title ? '' : null;
}

/**
 * The body of the save: a PUT replaces the whole strategy, so what the editor does not show (its
 * position, a field a newer server adds) goes back as it came.
 */
export function strategyToSend(draft: Draft, strategy: Strategy | null) {
  const edited = {
    name: draft.name,
    title: titleToSend(draft.title, strategy),
    disabled: draft.disabled,
    parameters: draft.parameters,
    constraints: cleanConstraints(draft.constraints),
    segments: draft.segments,
    variants: draft.variants.map(variantOf),
  };
  return strategy ? { ...strategy, ...edited } : edited;
}

export const STRATEGY_TABS = [
  { id: 'general', label: 'General' },
  { id: 'targeting', label: 'Targeting' },
  { id: 'variants', label: 'Variants' },
] as const;
export type StrategyTab = (typeof STRATEGY_TABS)[number]['id'];

/** The tab that shows the field a problem is at (`constraints.0.values`, `variants.1.weight`…). */
export function tabOfPath(path: string): StrategyTab {
  if (path.startsWith('constraints') || path.startsWith('segments')) return 'targeting';
  if (path.startsWith('variants')) return 'variants';
  return 'general';
}
