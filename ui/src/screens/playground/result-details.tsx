import { describeConstraint } from '../../constraints/operators';
import { Link } from '../../router';
import { flagHref } from '../../shared/links';
import { describeStrategyRule } from '../../shared/strategy-rule';
import type { JudgedConstraint, JudgedStrategy, ResultRow } from './answers';
import { missOf, type Outcome, strategyLabel, type TypeNames } from './reasons';
import { VariantText } from './variant-text';

function Checks({ constraints }: { constraints: JudgedConstraint[] }) {
  return (
    <ul class="checks">
      {constraints.map((c, i) => (
        <li key={i} class={c.result ? 'check-pass' : 'check-fail'}>
          <span aria-hidden="true">{c.result ? '✓' : '✗'}</span> <code>{describeConstraint(c)}</code>{' '}
          <strong>{c.result ? 'met' : 'not met'}</strong>
        </li>
      ))}
    </ul>
  );
}

function strategyVerdict(s: JudgedStrategy): { outcome: Outcome; words: string } {
  if (s.result.evaluationStatus === 'unevaluated')
    return { outcome: 'off', words: 'Disabled: not evaluated' };
  if (s.result.enabled === 'unknown') return { outcome: 'unknown', words: 'Unknown: a custom strategy' };
  return s.result.enabled ? { outcome: 'on', words: 'Matched' } : { outcome: 'off', words: 'Not matched' };
}

function JudgedStrategyItem({ strategy: s, typeNames }: { strategy: JudgedStrategy; typeNames: TypeNames }) {
  const verdict = strategyVerdict(s);
  const typeName = typeNames[s.name] || s.name;
  return (
    <li class={`judged-strategy judged-${verdict.outcome}`}>
      <div class="strategy-head">
        <h4>
          {strategyLabel(s, typeNames)}
          {s.title && <span class="muted"> ({typeName})</span>}
        </h4>
        <span class={`result result-${verdict.outcome}`}>{verdict.words}</span>
      </div>
      <p>{describeStrategyRule(s)}</p>
      {s.result.enabled === false && s.result.evaluationStatus === 'complete' && (
        <p>
          <span class="label">Why not:</span> {missOf(s)}.
        </p>
      )}
      {s.constraints.length > 0 && (
        <>
          <p class="label">Constraints (all must be met)</p>
          <Checks constraints={s.constraints} />
        </>
      )}
      {s.segments.map((g) => (
        <div key={g.id}>
          <p class="label">
            Segment {g.name || g.id}: <strong>{g.result ? 'in it' : 'not in it'}</strong>
          </p>
          {g.constraints.length > 0 ? (
            <Checks constraints={g.constraints} />
          ) : (
            <p class="muted">{g.name ? 'No constraints: everyone is in it.' : 'There is no such segment.'}</p>
          )}
        </div>
      ))}
      {s.result.variant && (
        <p>
          <span class="label">Its variant:</span> <VariantText variant={s.result.variant} />
        </p>
      )}
    </li>
  );
}

/** Everything the server explained about one result: the environment, the parent, each strategy. */
export function ResultDetails({ row, typeNames }: { row: ResultRow; typeNames: TypeNames }) {
  const strategies = row.strategies.data;
  return (
    <div class="result-why">
      <p>
        <span class="label">Environment:</span>{' '}
        {row.isEnabledInCurrentEnvironment
          ? `the flag is turned on in ${row.environment}.`
          : `the flag is turned off in ${row.environment}: off whatever its strategies say.`}
      </p>
      {row.hasUnsatisfiedDependency && (
        <p>
          <span class="label">Dependency:</span> its parent flag's condition is not met, so it is off.{' '}
          <Link href={flagHref(row.projectId, row.name)}>See its parent on the flag page</Link>
        </p>
      )}
      {strategies.length === 0 ? (
        <p>No strategies: when the environment is on, it is on for everyone.</p>
      ) : (
        <>
          <p class="label">Strategies, in evaluation order (the first that matches decides):</p>
          <ol class="judged-strategies">
            {strategies.map((s) => (
              <JudgedStrategyItem key={s.id} strategy={s} typeNames={typeNames} />
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
