import { describeConstraint } from '../../constraints/operators';
import type { Evaluation, JudgedStrategy, ResultRow } from './answers';

/** What an SDK would decide: on, off, or unknown (a custom strategy only the SDK can evaluate). */
export type Outcome = 'on' | 'off' | 'unknown';

export function outcomeOf(row: Evaluation): Outcome {
  if (row.isEnabled) return 'on';
  const open = row.isEnabledInCurrentEnvironment && !row.hasUnsatisfiedDependency;
  const custom = row.strategies.data.some(
    (s) => s.result.evaluationStatus === 'incomplete' && s.result.enabled === 'unknown',
  );
  return open && custom ? 'unknown' : 'off';
}

/** The display names of strategy types, by name (`default` is “Standard”). */
export type TypeNames = Record<string, string>;

/** A strategy's title, or else the display name of its type. */
export function strategyLabel(s: JudgedStrategy, typeNames: TypeNames): string {
  return s.title || typeNames[s.name] || s.name;
}

/** Why a strategy did not select the context, in a few words: the first part that failed. */
export function missOf(s: JudgedStrategy): string {
  if (s.result.evaluationStatus === 'unevaluated') return 'disabled, so not evaluated';
  const constraint = s.constraints.find((c) => !c.result);
  if (constraint) return `${describeConstraint(constraint)} is not met`;
  const segment = s.segments.find((g) => !g.result);
  if (segment) return `not in the segment ${segment.name || segment.id}`;
  if (s.result.evaluationStatus === 'incomplete') return 'a custom strategy only an SDK can evaluate';
  switch (s.name) {
    case 'flexibleRollout':
      return `outside its ${s.parameters.rollout ?? '100'}% rollout`;
    case 'userWithId':
      return 'the userId is not one it lists';
    case 'applicationHostname':
      return 'the host is not one it lists';
    case 'remoteAddress':
      return 'the remoteAddress is not one it lists';
    default:
      return 'its parameters do not select this context';
  }
}

/** What made a strategy match: its constraints and segments, met. */
function matchOf(s: JudgedStrategy): string {
  const parts = [
    ...s.constraints.map(describeConstraint),
    ...s.segments.map((g) => `in the segment ${g.name || g.id}`),
  ];
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** Why the flag is on, off or unknown for this context, in one sentence. */
export function reasonOf(row: ResultRow, typeNames: TypeNames): string {
  const strategies = row.strategies.data;
  if (!row.isEnabledInCurrentEnvironment) {
    const would =
      row.strategies.result === true && strategies.length > 0 ? ' (its strategies would match)' : '';
    return `The flag is turned off in ${row.environment}${would}.`;
  }
  if (row.hasUnsatisfiedDependency) return "Its parent flag's condition is not met.";
  if (strategies.length === 0) return 'No strategies: on for everyone.';
  const deciding = strategies.find((s) => s.result.enabled === true);
  if (deciding) return `“${strategyLabel(deciding, typeNames)}” matched${matchOf(deciding)}.`;
  if (outcomeOf(row) === 'unknown') {
    const custom = strategies.find((s) => s.result.enabled === 'unknown' && !s.disabled)!;
    return `“${strategyLabel(custom, typeNames)}” is a custom strategy: only an SDK can evaluate it.`;
  }
  return `${strategies.map((s) => `“${strategyLabel(s, typeNames)}”: ${missOf(s)}`).join('; ')}.`;
}
