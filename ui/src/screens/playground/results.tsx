import { useState } from 'preact/hooks';
import type { StrategyType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { TextField } from '../../components/fields';
import { Empty } from '../../components/status';
import { describeConstraint } from '../../constraints/operators';
import { Link } from '../../router';
import { flagHref } from '../../shared/links';
import { describeStrategyRule } from '../../shared/strategy-rule';
import type { JudgedConstraint, JudgedStrategy, ResultRow, Results } from './answers';
import { missOf, type Outcome, outcomeOf, reasonOf, strategyLabel, type TypeNames } from './reasons';
import { VariantText } from './variant-text';

const OUTCOME_WORDS: Record<Outcome, string> = { on: 'On', off: 'Off', unknown: 'Unknown' };

function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  return <span class={`result result-${outcome}`}>{OUTCOME_WORDS[outcome]}</span>;
}

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
function ResultDetails({ row, typeNames }: { row: ResultRow; typeNames: TypeNames }) {
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

function contextText(varying: Record<string, string>): string {
  return Object.entries(varying)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
}

function summaryOf(rows: ResultRow[], environments: string[]): string {
  const count = (o: Outcome) => rows.filter((r) => outcomeOf(r) === o).length;
  const unknown = count('unknown');
  const flags = new Set(rows.map((r) => r.name)).size;
  return (
    `${flags} ${flags === 1 ? 'flag' : 'flags'} in ${environments.join(', ')}` +
    `${rows.length > flags ? ` (${rows.length} evaluations)` : ''}: ${count('on')} on, ${count('off')} off` +
    `${unknown ? `, ${unknown} unknown` : ''}.`
  );
}

/** Every flag's result for the context: on or off, its variant and why, each row expandable. */
export function PlaygroundResults({ results }: { results: Results }) {
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [filter, setFilter] = useState('');
  const types = useResource<{ strategies: StrategyType[] }>('/api/admin/strategies');
  const typeNames: TypeNames = Object.fromEntries(
    (types.data?.strategies ?? []).map((t) => [t.name, t.displayName || t.name]),
  );
  const severalProjects = new Set(results.rows.map((r) => r.projectId)).size > 1;
  const severalEnvironments = results.environments.length > 1;
  const severalContexts = results.varyingFields.length > 0;
  const columns = 4 + (severalEnvironments ? 1 : 0) + (severalContexts ? 1 : 0);
  const needle = filter.trim().toLowerCase();
  const rows = results.rows
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => !needle || row.name.toLowerCase().includes(needle));
  const toggle = (index: number) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(index)) next.add(index);
      return next;
    });

  return (
    <section class="playground-results" aria-labelledby="playground-results">
      <h2 id="playground-results">Results</h2>
      <div class="results-tools">
        <p role="status">{summaryOf(results.rows, results.environments)}</p>
        {results.rows.length > 0 && (
          <TextField type="search" label="Find a flag" value={filter} onValue={setFilter} />
        )}
      </div>
      {results.warnings.map((w) => (
        <p key={w} class="alert alert-warning">
          {w}
        </p>
      ))}
      {rows.length === 0 ? (
        <Empty>
          {results.rows.length === 0 ? 'No flags in the chosen projects.' : 'No flag has that name.'}
        </Empty>
      ) : (
        <table class="table results-table">
          <caption class="visually-hidden">Each flag's result for the context</caption>
          <thead>
            <tr>
              <th scope="col">Flag</th>
              {severalEnvironments && <th scope="col">Environment</th>}
              {severalContexts && <th scope="col">Context</th>}
              <th scope="col">Result</th>
              <th scope="col">Variant</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ row, index }) => {
              const expanded = open.has(index);
              const where = [severalEnvironments ? row.environment : '', contextText(row.varying)]
                .filter(Boolean)
                .join(', ');
              return [
                <tr key={index} class={expanded ? 'result-row expanded' : 'result-row'}>
                  <th scope="row" data-label="Flag">
                    <Link href={flagHref(row.projectId, row.name)} class="flag-name">
                      {row.name}
                    </Link>
                    {severalProjects && <span class="muted flag-project"> {row.projectId}</span>}
                  </th>
                  {severalEnvironments && <td data-label="Environment">{row.environment}</td>}
                  {severalContexts && <td data-label="Context">{contextText(row.varying)}</td>}
                  <td data-label="Result">
                    <OutcomeBadge outcome={outcomeOf(row)} />
                  </td>
                  <td data-label="Variant">
                    <VariantText variant={row.variant} />
                  </td>
                  <td data-label="Why" class="result-reason">
                    <span>{reasonOf(row, typeNames)}</span>
                    <button
                      type="button"
                      class="button button-quiet details-button"
                      aria-expanded={expanded}
                      aria-controls={`result-${index}`}
                      aria-label={`Details of ${row.name}${where ? ` (${where})` : ''}`}
                      onClick={() => toggle(index)}
                    >
                      Details <span aria-hidden="true">{expanded ? '▴' : '▾'}</span>
                    </button>
                  </td>
                </tr>,
                <tr key={`${index}-details`} id={`result-${index}`} class="result-details" hidden={!expanded}>
                  <td colSpan={columns}>{expanded && <ResultDetails row={row} typeNames={typeNames} />}</td>
                </tr>,
              ];
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
