import { contextValue } from './context.js';
import type { Constraint, Context, StrategyDefinition, VariantDefinition } from './types.js';

/** Read from a context whose evaluation may come out differently each time (chance, the clock). */
const UNCACHEABLE = Symbol('uncacheable');

/**
 * Something of a context an evaluation reads, as it reads it: two contexts that read the same
 * for every input of a flag get the same evaluation of it. `id` names the input, so that a list
 * of flags reads each once.
 */
export interface Input {
  id: string;
  read(context: Context): string | undefined | typeof UNCACHEABLE;
}

const fields = new Map<string, Input>();

/** A field as constraints and overrides read it: standard, else a custom property. */
function field(name: string): Input {
  let input = fields.get(name);
  if (!input) {
    input = { id: `f:${name}`, read: (context) => contextValue(context, name) };
    fields.set(name, input);
  }
  return input;
}

/** A standard field as a rule reads it, the value itself: anything but a string is not cached. */
function raw(name: 'userId' | 'sessionId' | 'remoteAddress'): Input {
  return {
    id: `r:${name}`,
    read: (context) => {
      const value = context[name];
      return value === undefined || typeof value === 'string' ? value : UNCACHEABLE;
    },
  };
}

const USER = raw('userId');
const SESSION = raw('sessionId');
const ADDRESS = raw('remoteAddress');
const CHANCE: Input = { id: 'chance', read: () => UNCACHEABLE };
/** Date constraints compare with the context's time, or with now when it has none. */
const TIME: Input = {
  id: 'time',
  read: (context) =>
    typeof context.currentTime === 'string' && context.currentTime !== '' ? context.currentTime : UNCACHEABLE,
};
/** A custom stickiness field: a random id when the context lacks it. */
function stickinessField(name: string): Input {
  return { id: `s:${name}`, read: (context) => contextValue(context, name) ?? UNCACHEABLE };
}

export function constraintInputs(c: Constraint): Input[] {
  if (c.operator === 'DATE_AFTER' || c.operator === 'DATE_BEFORE') return [TIME];
  return [field(c.contextName)];
}

/** What a strategy's own rule reads; chance for those that roll dice (as when no id is there). */
export function ruleInputs(s: StrategyDefinition): Input[] {
  const p = s.parameters ?? {};
  switch (s.name) {
    case 'userWithId':
    case 'gradualRolloutUserId':
      return [USER];
    case 'gradualRolloutSessionId':
      return [SESSION];
    case 'remoteAddress':
      return [ADDRESS];
    case 'gradualRolloutRandom':
      return [CHANCE];
    case 'flexibleRollout': {
      const stickiness = p.stickiness === undefined || p.stickiness === null ? '' : String(p.stickiness);
      if (stickiness === '' || stickiness === 'default') return [ROLLOUT_ID];
      return stickiness === 'random' ? [CHANCE] : [field(stickiness)];
    }
    default:
      return [];
  }
}

/** The id a rollout of default stickiness hashes: the user's, else the session's, else chance. */
const ROLLOUT_ID: Input = {
  id: 'rollout-id',
  read: (context) => {
    const id = context.userId || context.sessionId;
    return typeof id === 'string' ? id : UNCACHEABLE;
  },
};

/** The id variants of default stickiness hash: the first of the three the context has, else chance. */
const VARIANT_ID: Input = {
  id: 'variant-id',
  read: (context) => {
    for (const name of ['userId', 'sessionId', 'remoteAddress'] as const) {
      const value = context[name];
      if (typeof value === 'string' && value !== '') return value;
    }
    return UNCACHEABLE;
  },
};

/** What picking from a list of variants reads: the overrides' fields and the stickiness. */
export function variantInputs(
  variants: readonly VariantDefinition[],
  stickiness: string | undefined,
): Input[] {
  if (variants.length === 0) return [];
  const overrides = variants.flatMap((v) => (v.overrides ?? []).map((o) => field(o.contextName)));
  const sticky = !stickiness || stickiness === 'default' ? [VARIANT_ID] : [stickinessField(stickiness)];
  return [...overrides, ...sticky];
}

/**
 * The key of a context for a set of inputs: equal keys, equal evaluations. Undefined when an
 * input says the evaluation may differ whatever the context.
 */
export function keyOf(inputs: readonly Input[], context: Context): string | undefined {
  const values: (string | null)[] = [];
  for (const input of inputs) {
    const value = input.read(context);
    if (value === UNCACHEABLE) return undefined;
    values.push(value ?? null);
  }
  return JSON.stringify(values);
}
