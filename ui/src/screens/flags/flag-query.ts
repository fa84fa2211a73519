/** What a list of flags shows: its filters, its order and its page, all kept in the page's URL. */
export interface FlagQuery {
  search: string;
  /** Only on the overview of every project: a project page lists its own. */
  project: string;
  type: string;
  /** `type:value`, or empty for any tag. */
  tag: string;
  state: '' | 'stale' | 'fresh' | 'potentially-stale';
  lifecycle: string;
  archived: boolean;
  sort: SortKey;
  order: 'asc' | 'desc';
  /** From 0. */
  page: number;
}

export const SORT_KEYS = ['name', 'project', 'type', 'lifecycle', 'createdAt', 'lastSeenAt'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const PAGE_SIZE = 50;
const STATES = ['stale', 'fresh', 'potentially-stale'] as const;
const isState = (v: string | null): v is (typeof STATES)[number] => STATES.includes(v as never);
const isSortKey = (v: string | null): v is SortKey => SORT_KEYS.includes(v as never);

export function queryFromUrl(params: URLSearchParams): FlagQuery {
  const state = params.get('state');
  const sort = params.get('sort');
  return {
    search: params.get('search') ?? '',
    project: params.get('project') ?? '',
    type: params.get('type') ?? '',
    tag: params.get('tag') ?? '',
    state: isState(state) ? state : '',
    lifecycle: params.get('lifecycle') ?? '',
    archived: params.get('archived') === '1',
    sort: isSortKey(sort) ? sort : 'createdAt',
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    page: Math.max(0, (Number.parseInt(params.get('page') ?? '1', 10) || 1) - 1),
  };
}

/** The query as the page's URL keeps it: only what differs from a plain first page. */
export function queryToUrl(q: FlagQuery): string {
  const params = new URLSearchParams();
  const put = (name: string, value: string) => value && params.set(name, value);
  put('search', q.search);
  put('project', q.project);
  put('type', q.type);
  put('tag', q.tag);
  put('state', q.state);
  put('lifecycle', q.lifecycle);
  if (q.archived) params.set('archived', '1');
  if (q.sort !== 'createdAt') params.set('sort', q.sort);
  if (q.order === 'desc') params.set('order', 'desc');
  if (q.page > 0) params.set('page', String(q.page + 1));
  const text = params.toString();
  return text ? `?${text}` : '';
}

const STATE_FILTERS = {
  stale: 'IS:stale',
  fresh: 'IS_NOT:stale',
  'potentially-stale': 'IS:potentially-stale',
};

/** The search API's request for one page of the query (`project` fixed on a project's page). */
export function searchPath(q: FlagQuery, project?: string): string {
  const params = new URLSearchParams();
  const put = (name: string, value: string, prefix = 'IS:') => value && params.set(name, prefix + value);
  if (q.search.trim()) params.set('query', q.search.trim());
  put('project', project ?? q.project);
  put('type', q.type);
  put('tag', q.tag, 'INCLUDE:');
  if (q.state) params.set('state', STATE_FILTERS[q.state]);
  put('lifecycle', q.lifecycle);
  if (q.archived) params.set('archived', 'IS:true');
  params.set('sortBy', q.sort);
  params.set('sortOrder', q.order);
  params.set('offset', String(q.page * PAGE_SIZE));
  params.set('limit', String(PAGE_SIZE));
  return `/api/admin/search/features?${params}`;
}
