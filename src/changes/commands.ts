import type { Change } from './change.js';
import { FEATURE_CHANGES } from './feature-changes.js';
import { RELEASE_CHANGES } from './release-changes.js';
import { STRATEGY_CHANGES } from './strategy-changes.js';

/**
 * Every change a flag's configuration can undergo, named as Unleash's change requests name them
 * where they have a name. Routes build these commands; whatever stores and replays changes later
 * (change requests, schedules) hands the same commands to `applyChange`.
 */
export const CHANGES = { ...FEATURE_CHANGES, ...STRATEGY_CHANGES, ...RELEASE_CHANGES };

export type Action = keyof typeof CHANGES;
type Fields<A extends Action> = (typeof CHANGES)[A] extends Change<infer C, infer _R> ? C : never;
export type ResultOf<A extends Action> = (typeof CHANGES)[A] extends Change<infer _C, infer R> ? R : never;
export type Command<A extends Action = Action> = { [K in A]: { action: K } & Fields<K> }[A];
