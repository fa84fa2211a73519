import { useEffect, useState } from 'preact/hooks';
import type { FlagSearchAnswer, FoundFlag } from '../../api/flag-search';
import type { Environment, FeatureType, Tag } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { lazy } from '../../components/lazy';
import { Pager } from '../../components/pager';
import { Empty, Loaded, Problem } from '../../components/status';
import { navigate } from '../../router';
import { ArchivedTable } from './archived-table';
import { FlagFilters } from './flag-filters';
import { type FlagQuery, PAGE_SIZE, queryToUrl, searchPath } from './flag-query';
import { FlagTable, keyOf } from './flag-table';

// Needed once flags are selected: loaded then.
const BulkActions = lazy(() => import('./bulk-actions').then((m) => m.BulkActions));

interface Props {
  query: FlagQuery;
  /** The page's path, to which the query is added. */
  base: string;
  /** A project's page lists that project's flags; the overview lists every project's. */
  project?: string;
  /** The environments that get a column. */
  environments: Environment[];
}

function switched(answer: FlagSearchAnswer, flag: FoundFlag, environment: string, enabled: boolean) {
  return {
    ...answer,
    features: answer.features.map((f) =>
      f !== flag
        ? f
        : { ...f, environments: f.environments.map((e) => (e.name === environment ? { ...e, enabled } : e)) },
    ),
  };
}

const filtered = (q: FlagQuery) =>
  Boolean(q.search || q.project || q.type || q.tag || q.state || q.lifecycle);

/**
 * Flags found by the search API one page at a time: the server filters, sorts and pages, so a list
 * of 10,000 flags costs the browser what a list of 50 does.
 */
export function FlagList({ query, base, project, environments }: Props) {
  const found = useResource<FlagSearchAnswer>(searchPath(query, project), { keep: true });
  const types = useResource<{ types: FeatureType[] }>('/api/admin/feature-types');
  const tags = useResource<{ tags: Tag[] }>('/api/admin/tags');
  const projects = useResource<{ projects: { id: string; name: string }[] }>(
    project === undefined ? '/api/admin/projects' : null,
  );
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // Another page, filter or order: what was selected is out of sight, so no longer selected.
  const path = searchPath(query, project);
  useEffect(() => {
    setSelected(new Set());
    setDone(undefined);
  }, [path]);
  const select = (keys: string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const k of keys) on ? next.add(k) : next.delete(k);
      return next;
    });
  const show = (next: FlagQuery) => navigate(base + queryToUrl(next), { replace: true });
  const total = found.data?.total ?? 0;
  const lastPage = Math.max(0, Math.ceil(total / PAGE_SIZE) - 1);

  // A page past the end (an old link, a list that got shorter) shows the last one.
  useEffect(() => {
    if (found.data && !found.loading && query.page > lastPage) show({ ...query, page: lastPage });
  });

  return (
    <>
      <FlagFilters
        query={query}
        onQuery={show}
        types={types.data?.types ?? []}
        tags={tags.data?.tags ?? []}
        projects={project === undefined ? (projects.data?.projects ?? []) : undefined}
      />
      <Problem message={problem} />
      {done && (
        <p class="alert alert-success" role="status">
          {done}
        </p>
      )}
      {selected.size > 0 && !query.archived && (
        <BulkActions
          selected={(found.data?.features ?? []).filter((f) => selected.has(keyOf(f)))}
          environments={environments}
          onDone={(message) => {
            setProblem(undefined);
            setDone(message);
            setSelected(new Set());
            found.reload();
          }}
          onError={setProblem}
          onClear={() => setSelected(new Set())}
        />
      )}
      <Loaded resources={[found]} label="Loading flags…">
        {(answer) =>
          answer.total === 0 ? (
            <Empty>
              {filtered(query)
                ? 'No flag matches the filter.'
                : query.archived
                  ? `No archived flags${project === undefined ? '' : ' in this project'}.`
                  : project === undefined
                    ? 'No flags yet.'
                    : 'This project has no flags yet.'}
            </Empty>
          ) : (
            <>
              {query.archived ? (
                <ArchivedTable
                  flags={answer.features}
                  showProject={project === undefined}
                  onGone={() => found.reload()}
                  onError={setProblem}
                />
              ) : (
                <FlagTable
                  flags={answer.features}
                  environments={environments}
                  types={types.data?.types ?? []}
                  showProject={project === undefined}
                  query={query}
                  onQuery={show}
                  onSwitched={(flag, env, enabled) => {
                    setProblem(undefined);
                    found.mutate((a) => switched(a, flag, env, enabled));
                    // Switching on may have added a strategy: read who it lets in now.
                    found.reload();
                  }}
                  onError={setProblem}
                  selected={selected}
                  onSelect={select}
                />
              )}
              <Pager
                page={Math.min(query.page, lastPage)}
                pageSize={PAGE_SIZE}
                total={answer.total}
                onPage={(page) => show({ ...query, page })}
                noun="flags"
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}
