import type { FoundEnvironment, StrategyReach } from '../../api/flag-search';

/** Who gets a flag in one environment, in a few words, and whether that is nobody although it is on. */
export interface Reach {
  text: string;
  nobody: boolean;
}

const narrowed = (s: StrategyReach) => s.constraints > 0 || s.segments > 0;
const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

function describeOne(s: StrategyReach): string {
  const where = narrowed(s) ? ', with conditions' : '';
  if (s.rollout !== undefined) return `${s.rollout} % rollout${where}`;
  if (s.users !== undefined) return `${plural(s.users, 'user')}${where}`;
  if (s.name === 'default') return 'Only where conditions hold';
  return `${s.name}${where}`;
}

/**
 * What the switch of an environment leaves unsaid: an environment that is on may still let nobody
 * in (a 0 % rollout, every strategy disabled), or everyone, or some.
 */
export function describeReach(
  env: Pick<FoundEnvironment, 'enabled' | 'hasStrategies' | 'enabledStrategies'>,
): Reach {
  if (!env.enabled) return { text: 'Off', nobody: false };
  // On without any strategy, SDKs serve it to everyone; with only disabled ones, to nobody.
  if (!env.hasStrategies) return { text: 'Everyone', nobody: false };
  const letting = env.enabledStrategies.filter((s) => s.rollout !== 0);
  if (letting.length === 0) {
    const why = env.enabledStrategies.length === 0 ? 'strategies disabled' : '0 % rollout';
    return { text: `Off for everyone (${why})`, nobody: true };
  }
  if (letting.some((s) => !narrowed(s) && (s.name === 'default' || s.rollout === 100))) {
    return { text: 'Everyone', nobody: false };
  }
  if (letting.length === 1) return { text: describeOne(letting[0]!), nobody: false };
  return { text: `${letting.length} strategies`, nobody: false };
}
