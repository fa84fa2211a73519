/** The address of a flag's page, or of one of its tabs. */
export function flagHref(project: string, flag: string, tab = ''): string {
  return `/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(flag)}${tab ? `/${tab}` : ''}`;
}

/** The address of a strategy type's page. */
export const strategyTypeHref = (name: string) => `/strategies/${encodeURIComponent(name)}`;

/** The address of a project's change requests, or of one of them. */
export function changeRequestHref(project: string, id?: number): string {
  return `/projects/${encodeURIComponent(project)}/change-requests${id === undefined ? '' : `/${id}`}`;
}
