import { hostname } from 'node:os';
import { inAddressRanges } from './constraints.js';
import { contextValue } from './context.js';
import { rolloutBucket } from './murmur3.js';
import type { Context } from './types.js';

type Parameters = Record<string, unknown>;
type StrategyCheck = (parameters: Parameters, context: Context, featureName: string) => boolean;

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));
const list = (value: unknown): string[] => (text(value) ? text(value).split(/\s*,\s*/) : []);

function randomStickiness(): string {
  return String(Math.round(Math.random() * 10000) + 1);
}

function inRollout(id: string | undefined, groupId: string, percentage: number): boolean {
  return !!id && percentage > 0 && rolloutBucket(id, groupId) <= percentage;
}

const HOSTNAME = (process.env.HOSTNAME || hostname() || 'undefined').toLowerCase();

/** The built-in activation strategies, with the semantics of the Unleash SDKs. */
const STRATEGIES: Record<string, StrategyCheck> = {
  default: () => true,
  userWithId: (p, ctx) => ctx.userId !== undefined && list(p.userIds).includes(ctx.userId),
  flexibleRollout: (p, ctx, featureName) => {
    const stickiness = text(p.stickiness) || 'default';
    let id: string | undefined;
    if (stickiness === 'default') id = ctx.userId || ctx.sessionId || randomStickiness();
    else if (stickiness === 'random') id = randomStickiness();
    else id = contextValue(ctx, stickiness);
    return inRollout(id, text(p.groupId) || featureName, Number(p.rollout));
  },
  gradualRolloutUserId: (p, ctx) => inRollout(ctx.userId, text(p.groupId), Number(p.percentage)),
  gradualRolloutSessionId: (p, ctx) => inRollout(ctx.sessionId, text(p.groupId), Number(p.percentage)),
  gradualRolloutRandom: (p) => Number(p.percentage) >= Math.floor(Math.random() * 100) + 1,
  remoteAddress: (p, ctx) =>
    list(p.IPs).some((range) => range === ctx.remoteAddress || inAddressRanges(ctx.remoteAddress, [range])),
  applicationHostname: (p) => list(text(p.hostNames).toLowerCase()).includes(HOSTNAME),
};

/** Whether this server can evaluate the strategy type (custom types live in the SDKs' code). */
export function isKnownStrategy(name: string): boolean {
  return Object.hasOwn(STRATEGIES, name);
}

/** Whether the strategy's own rule lets the context in; an unknown strategy never does. */
export function strategyHolds(
  name: string,
  parameters: Parameters,
  context: Context,
  featureName: string,
): boolean {
  return isKnownStrategy(name) ? STRATEGIES[name]!(parameters, context, featureName) : false;
}
