import type { Strategy } from '../api/types';

function listed(value: string | undefined): string {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .join(', ');
}

/** What a strategy does, in one sentence. */
export function describeStrategyRule(s: Pick<Strategy, 'name' | 'parameters'>): string {
  const p = s.parameters;
  switch (s.name) {
    case 'default':
      return 'On for everyone.';
    case 'flexibleRollout': {
      const by = p.stickiness === 'random' ? 'at random' : `by ${p.stickiness || 'default'} stickiness`;
      return `On for ${p.rollout ?? '100'}% of the audience, ${by} (group ${p.groupId || '—'}).`;
    }
    case 'userWithId':
      return `On for the users ${listed(p.userIds)}.`;
    case 'applicationHostname':
      return `On for the hosts ${listed(p.hostNames)}.`;
    case 'remoteAddress':
      return `On for the addresses ${listed(p.IPs)}.`;
    default:
      return Object.entries(p)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ');
  }
}
