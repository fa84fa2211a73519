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

/** A project with the environments linked to it, in their order, and those that need change requests. */
export type LinkedProject = Project & {
  environments: string[];
  /** Environment → the approvals a change request needs there; only those that need them. */
  changeRequestApprovals: ReadonlyMap<string, number>;
};

/** Every project with the environments linked to it (for the flag read model). */
export async function allProjects(db: Queryable): Promise<LinkedProject[]> {
  const projects = await listProjectRows(db);
  const links = await listEnvironmentLinks(db);
  const environments = await allEnvironments(db);
  const linked = new Map<string, string[]>();
  const approvals = new Map<string, Map<string, number>>();
  for (const { project, environment, changeRequestApprovals } of links) {
    linked.set(project, [...(linked.get(project) ?? []), environment]);
    if (changeRequestApprovals === null) continue;
    approvals.set(project, (approvals.get(project) ?? new Map()).set(environment, changeRequestApprovals));
  }
  return projects.map((p) => ({
    ...p,
    environments: inEnvironmentOrder(environments, linked.get(p.id) ?? []),
    changeRequestApprovals: approvals.get(p.id) ?? new Map(),
  }));
}
