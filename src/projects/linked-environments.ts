import type { Queryable } from '../db/database.js';
import { allEnvironments } from '../environments/list.js';
import type { Environment } from '../environments/types.js';
import { listEnvironmentLinks, listProjectRows } from './store.js';
import type { Project } from './types.js';

/** Those of the environments' names that `linked` holds, in the environments' order. */
export function inEnvironmentOrder(environments: Environment[], linked: Iterable<string>): string[] {
  const names = new Set(linked);
  return environments.filter((e) => names.has(e.name)).map((e) => e.name);
}

/** Every project with the environments linked to it, in their order (for the flag read model). */
export async function allProjects(db: Queryable): Promise<(Project & { environments: string[] })[]> {
  const projects = await listProjectRows(db);
  const links = await listEnvironmentLinks(db);
  const environments = await allEnvironments(db);
  const linked = new Map<string, string[]>();
  for (const { project, environment } of links)
    linked.set(project, [...(linked.get(project) ?? []), environment]);
  return projects.map((p) => ({
    ...p,
    environments: inEnvironmentOrder(environments, linked.get(p.id) ?? []),
  }));
}
