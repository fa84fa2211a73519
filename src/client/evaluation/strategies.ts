import { hostname } from 'node:os';
import { addressMatcher } from './constraints.js';
import { fieldReader } from './context.js';
import { rolloutBuckets } from './murmur3.js';
import type { Context } from './types.js';

type Parameters = Record<string, unknown>;
/** A strategy's own rule, its parameters parsed once; the feature's name is the default group. */
export type Rule = (context: Context) => boolean;
type RuleCompiler = (parameters: Parameters, featureName: string) => Rule;

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));
const list = (value: unknown): string[] => (text(value) ? text(value).split(/\s*,\s*/) : []);

function randomStickiness(): string {
  return String(Math.round(Math.random() * 10000) + 1);
}

/** A rollout of `percentage` within `groupId`: nobody at 0 (or an unreadable percentage). */
function rollout(groupId: string, percentage: number): (id: string | undefined) => boolean {
  if (!(percentage > 0)) return () => false;
  const bucket = rolloutBuckets(groupId);
  return (id) => !!id && bucket(id) <= percentage;
}

/** Where a flexible rollout reads the id it hashes from. */
function stickinessOf(stickiness: string): (context: Context) => string | undefined {
  if (stickiness === 'default') {
    return (context) => (context.userId as string) || (context.sessionId as string) || randomStickiness();
  }
  if (stickiness === 'random') return randomStickiness;
  return fieldReader(stickiness);
}

const HOSTNAME = (process.env.HOSTNAME || hostname() || 'undefined').toLowerCase();

const always: Rule = () => true;

/** The built-in activation strategies, with the semantics of the Unleash SDKs. */
const STRATEGIES: Record<string, RuleCompiler> = {
  default: () => always,
  userWithId: (p) => {
    const ids = new Set(list(p.userIds));
    return (context) => context.userId !== undefined && ids.has(context.userId);
  },
  flexibleRollout: (p, featureName) => {
    const id = stickinessOf(text(p.stickiness) || 'default');
    const inRollout = rollout(text(p.groupId) || featureName, Number(p.rollout));
    return (context) => inRollout(id(context));
  },
  gradualRolloutUserId: (p) => {
    const inRollout = rollout(text(p.groupId), Number(p.percentage));
    return (context) => inRollout(context.userId);
  },
  gradualRolloutSessionId: (p) => {
    const inRollout = rollout(text(p.groupId), Number(p.percentage));
    return (context) => inRollout(context.sessionId);
  },
  gradualRolloutRandom: (p) => {
    const percentage = Number(p.percentage);
    return () => percentage >= Math.floor(Math.random() * 100) + 1;
  },
  remoteAddress: (p) => {
    const ranges = list(p.IPs);
    const exact = new Set(ranges);
    const inRanges = addressMatcher(ranges);
    return (context) => exact.has(context.remoteAddress as string) || inRanges(context.remoteAddress);
  },
  applicationHostname: (p) => {
    const on = list(text(p.hostNames).toLowerCase()).includes(HOSTNAME);
    return () => on;
  },
};

/** Whether this server can evaluate the strategy type (custom types live in the SDKs' code). */
export function isKnownStrategy(name: string): boolean {
  return Object.hasOwn(STRATEGIES, name);
}

const never: Rule = () => false;

/** The strategy's own rule; an unknown strategy never lets anyone in. */
export function compileRule(name: string, parameters: Parameters, featureName: string): Rule {
  return isKnownStrategy(name) ? STRATEGIES[name]!(parameters, featureName) : never;
}
