import { useMemo, useState } from 'preact/hooks';
import type { StrategyType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Pager } from '../../components/pager';
import { Empty } from '../../components/status';
import { Link } from '../../router';
import { flagHref } from '../../shared/links';
import type { ResultRow, Results } from './answers';
import { type Outcome, outcomeOf, reasonOf, type TypeNames } from './reasons';
import { ResultDetails } from './result-details';
import { differingKeys, filterRows, NO_FILTER, type ResultFilter } from './result-filter';
import { ResultFilters } from './result-filters';
import { VariantText } from './variant-text';

const OUTCOME_WORDS: Record<Outcome, string> = { on: 'On', off: 'Off', unknown: 'Unknown' };

function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  return <span class={`result result-${outcome}`}>{OUTCOME_WORDS[outcome]}</span>;
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

const PAGE_SIZE = 50;

/**
 * Every flag's result for the context, a page at a time: an answer may hold ten thousand rows,
 * and only the page shown is rendered. Each row expands to say why.
 */
export function PlaygroundResults({ results }: { results: Results }) {
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [filter, setFilter] = useState<ResultFilter>(NO_FILTER);
  const [page, setPage] = useState(0);
  const types = useResource<{ strategies: StrategyType[] }>('/api/admin/strategies');
  const typeNames: TypeNames = useMemo(
    () => Object.fromEntries((types.data?.strategies ?? []).map((t) => [t.name, t.displayName || t.name])),
    [types.data],
  );
  const { rows } = results;
  const severalProjects = useMemo(() => new Set(rows.map((r) => r.projectId)).size > 1, [rows]);
  const summary = useMemo(() => summaryOf(rows, results.environments), [rows, results.environments]);
  const differing = useMemo(() => differingKeys(rows), [rows]);
  const shown = useMemo(() => filterRows(rows, filter, differing), [rows, filter, differing]);
  const severalEnvironments = results.environments.length > 1;
  const severalContexts = results.varyingFields.length > 0;
  const columns = 4 + (severalEnvironments ? 1 : 0) + (severalContexts ? 1 : 0);
  const at = Math.min(page, Math.max(0, Math.ceil(shown.length / PAGE_SIZE) - 1));
  const pageRows = shown.slice(at * PAGE_SIZE, (at + 1) * PAGE_SIZE);
  const toggle = (index: number) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(index)) next.add(index);
      return next;
    });

  return (
    <section class="playground-results" aria-labelledby="playground-results">
      <h2 id="playground-results">Results</h2>
      <p role="status">{summary}</p>
      {rows.length > 0 && (
        <ResultFilters
          filter={filter}
          onFilter={(next) => {
            setFilter(next);
            setPage(0);
          }}
          severalEnvironments={severalEnvironments}
        />
      )}
      {results.warnings.map((w) => (
        <p key={w} class="alert alert-warning">
          {w}
        </p>
      ))}
      {shown.length === 0 ? (
        <Empty>
          {rows.length === 0 ? 'No flags in the chosen projects.' : 'No result matches the filter.'}
        </Empty>
      ) : (
        <>
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
              {pageRows.map((index) => {
                const row = rows[index]!;
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
                  <tr
                    key={`${index}-details`}
                    id={`result-${index}`}
                    class="result-details"
                    hidden={!expanded}
                  >
                    <td colSpan={columns}>{expanded && <ResultDetails row={row} typeNames={typeNames} />}</td>
                  </tr>,
                ];
              })}
            </tbody>
          </table>
          {/* The summary counts every result: the pager's count says more only for a filter or pages. */}
          {(shown.length > PAGE_SIZE || shown.length !== rows.length) && (
            <Pager page={at} pageSize={PAGE_SIZE} total={shown.length} onPage={setPage} noun="results" />
          )}
        </>
      )}
    </section>
  );
}
