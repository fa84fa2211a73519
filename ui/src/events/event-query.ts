/** Which events the log shows: its filters and its page, all kept in the page's URL. */
export interface EventQuery {
  type: string;
  /** A project's id. */
  project: string;
  /** The id of the user who made the changes, as text. */
  user: string;
  /** A flag's exact name. */
  feature: string;
  /** Days (yyyy-mm-dd, UTC), both included. */
  from: string;
  to: string;
  /** From 0. */
  page: number;
}

export const PAGE_SIZE = 50;
export const NO_FILTER: EventQuery = {
  type: '',
  project: '',
  user: '',
  feature: '',
  from: '',
  to: '',
  page: 0,
};
const FILTERS = ['type', 'project', 'user', 'feature', 'from', 'to'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// A hand-edited link with a malformed day or user would make the server refuse the whole search.
const day = (value: string | null) => (value && DAY.test(value) ? value : '');
const userId = (value: string | null) => (value && /^-?\d+$/.test(value) ? value : '');

export function queryFromUrl(params: URLSearchParams): EventQuery {
  return {
    type: params.get('type') ?? '',
    project: params.get('project') ?? '',
    user: userId(params.get('user')),
    feature: params.get('feature') ?? '',
    from: day(params.get('from')),
    to: day(params.get('to')),
    page: Math.max(0, (Number.parseInt(params.get('page') ?? '1', 10) || 1) - 1),
  };
}

/** The query as the page's URL keeps it: only what differs from an unfiltered first page. */
export function queryToUrl(q: EventQuery): string {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (q[name]) params.set(name, q[name]);
  if (q.page > 0) params.set('page', String(q.page + 1));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const isFiltered = (q: EventQuery) => FILTERS.some((name) => q[name] !== '');

/** The search API's request for one page of the query. */
export function searchPath(q: EventQuery): string {
  const params = new URLSearchParams();
  const put = (name: string, value: string) => value && params.set(name, `IS:${value}`);
  put('type', q.type);
  put('project', q.project);
  put('createdBy', q.user);
  put('feature', q.feature.trim());
  put('from', q.from);
  put('to', q.to);
  params.set('offset', String(q.page * PAGE_SIZE));
  params.set('limit', String(PAGE_SIZE));
  return `/api/admin/search/events?${params}`;
}
