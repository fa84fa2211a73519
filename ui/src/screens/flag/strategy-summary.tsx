import type { Segment, Strategy } from '../../api/types';
import { describeConstraint } from '../../constraints/operators';

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

/** A strategy's rule, constraints, segments and variants, as read-only text. */
export function StrategySummary({ strategy, segments }: { strategy: Strategy; segments: Segment[] }) {
  const segmentNames = strategy.segments.map(
    (id) => segments.find((s) => s.id === id)?.name ?? `segment ${id}`,
  );
  return (
    <div class="strategy-summary">
      <p>{describeStrategyRule(strategy)}</p>
      {strategy.constraints.length > 0 && (
        <>
          <p class="label">Only where every constraint holds:</p>
          <ul class="constraint-list">
            {strategy.constraints.map((c, i) => (
              <li key={i}>
                <code>{describeConstraint(c)}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {segmentNames.length > 0 && (
        <p>
          <span class="label">Segments:</span> {segmentNames.join(', ')}
        </p>
      )}
      {strategy.variants.length > 0 && (
        <p>
          <span class="label">Variants:</span>{' '}
          {strategy.variants.map((v) => `${v.name} (${v.weight / 10}%)`).join(', ')}
        </p>
      )}
    </div>
  );
}
