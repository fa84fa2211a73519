import type { Segment, Strategy } from '../../api/types';
import { describeConstraint } from '../../constraints/operators';
import { describeStrategyRule } from '../../shared/strategy-rule';

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
