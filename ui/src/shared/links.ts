/** The address of a flag's page, or of one of its tabs. */
export function flagHref(project: string, flag: string, tab = ''): string {
  return `/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(flag)}${tab ? `/${tab}` : ''}`;
}

/** The address of a strategy type's page. */
export const strategyTypeHref = (name: string) => `/strategies/${encodeURIComponent(name)}`;
