import type { Constraint } from '../../constraints/rules.js';
import type { Variant } from '../variants/rules.js';

/**
 * A strategy's settings kept apart from any flag, checked by the rules of a flag's strategy: a
 * project's default strategy for an environment, a release template milestone's strategies. A
 * flexibleRollout `groupId` left empty stays empty: it becomes the name of the flag it goes to.
 */
export interface StrategySettings {
  /** The strategy type, e.g. `flexibleRollout`. */
  name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: Variant[];
  /** Segment ids, without duplicates, ascending. */
  segments: number[];
}
