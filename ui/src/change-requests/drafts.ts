import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, seg } from '../api/client';
import type { ChangeInput, ChangeRequest, ChangeRequestConfig } from './types';

/** `/api/admin/projects/<p>/change-requests`: the base path of a project's change requests. */
export const requestsPath = (project: string) => `/api/admin/projects/${seg(project)}/change-requests`;

// A flag list has a switch per flag and environment: the project's settings are read once for all
// of them, and again after a while, since another user may change them meanwhile.
const FRESH_FOR_MS = 10_000;
const configs = new Map<string, { at: number; read: Promise<ReadonlySet<string>> }>();

/**
 * The environments of the project where flags change only through change requests. A project
 * whose settings cannot be read counts as having none: the server refuses what it must.
 */
export function draftEnvironments(project: string): Promise<ReadonlySet<string>> {
  const cached = configs.get(project);
  if (cached && Date.now() - cached.at < FRESH_FOR_MS) return cached.read;
  const read = api
    .get<ChangeRequestConfig[]>(`${requestsPath(project)}/config`)
    .then((list) => new Set(list.filter((e) => e.changeRequestEnabled).map((e) => e.environment)))
    .catch(() => new Set<string>());
  configs.set(project, { at: Date.now(), read });
  return read;
}

/** Reads the project's settings anew next time: they were just changed. */
export function forgetChangeRequestConfig(project: string): void {
  configs.delete(project);
}

/** The environments of the project that take change requests; undefined until they are read. */
export function useDraftEnvironments(project: string): ReadonlySet<string> | undefined {
  const [known, setKnown] = useState<{ project: string; environments: ReadonlySet<string> }>();
  useEffect(() => {
    let current = true;
    draftEnvironments(project).then((environments) => {
      if (current) setKnown({ project, environments });
    });
    return () => {
      current = false;
    };
  }, [project]);
  return known?.project === project ? known.environments : undefined;
}

const CHANGED = 'flagpole:drafts-changed';

/** Tells what shows the user's drafts (the banner) that one changed. */
export function announceDraftChange(): void {
  window.dispatchEvent(new Event(CHANGED));
}

/** Calls `listener` whenever a draft changed on this page; answers the function that stops it. */
export function onDraftChange(listener: () => void): () => void {
  window.addEventListener(CHANGED, listener);
  return () => window.removeEventListener(CHANGED, listener);
}

/**
 * The server's problems with one change's payload placed as the direct endpoint places them
 * (`.payload.constraints.0.values` → `constraints.0.values`), so that a form shows them beside
 * its fields whichever way it saves.
 */
function asDirect(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.details.length === 0) return error;
  const inPayload = (text: string) => text.replace(/(^|`)\.?payload\./g, '$1');
  return new ApiError(
    error.status,
    error.kind,
    inPayload(error.message),
    error.details.map((d) => ({
      message: inPayload(d.message),
      ...(d.path === undefined ? {} : { path: inPayload(d.path) }),
    })),
  );
}

/** Adds changes to the user's draft for the environment (made when there is none). */
export async function addToDraft(
  project: string,
  environment: string,
  changes: ChangeInput | ChangeInput[],
): Promise<ChangeRequest> {
  const path = `/api/admin/projects/${seg(project)}/environments/${seg(environment)}/change-requests`;
  let draft: ChangeRequest;
  try {
    draft = await api.post<ChangeRequest>(path, changes);
  } catch (error) {
    throw Array.isArray(changes) ? error : asDirect(error);
  }
  announceDraftChange();
  return draft;
}

/** The refusal of a direct change where change requests are needed (settings changed since read). */
const needsChangeRequest = (error: unknown) =>
  error instanceof ApiError && error.status === 403 && error.message.includes('SKIP_CHANGE_REQUEST');

/**
 * Makes a change of a flag in an environment: directly with `direct`, or, where the environment
 * takes change requests, as a change added to the user's draft there, for everyone (as Unleash
 * does: a change others review, whoever makes it). Answers which it was.
 */
export async function changeOrDraft(
  project: string,
  environment: string,
  change: ChangeInput,
  direct: () => Promise<unknown>,
): Promise<'draft' | 'done'> {
  if ((await draftEnvironments(project)).has(environment)) {
    await addToDraft(project, environment, change);
    return 'draft';
  }
  try {
    await direct();
    return 'done';
  } catch (error) {
    if (!needsChangeRequest(error)) throw error;
    // Turned on since the settings were read: the change goes where it must.
    forgetChangeRequestConfig(project);
    if (!(await draftEnvironments(project)).has(environment)) throw error;
    await addToDraft(project, environment, change);
    return 'draft';
  }
}
