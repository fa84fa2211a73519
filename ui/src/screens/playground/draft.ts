import { ApiError } from '../../api/client';
import { isoFromLocalInput } from '../../forms/dates';
import type { Form } from '../../forms/use-form';

/** The fields SDKs send at the top of a context; the others go in `properties`. */
export const STANDARD_FIELDS = [
  'appName',
  'environment',
  'userId',
  'sessionId',
  'remoteAddress',
  'currentTime',
];

export interface Property {
  name: string;
  value: string;
}

export interface Draft {
  environments: string[];
  allProjects: boolean;
  projects: string[];
  /** The context's fields by name (currentTime as a `datetime-local` value). */
  fields: Record<string, string>;
  properties: Property[];
}

interface Request {
  advanced: boolean;
  body: Record<string, unknown>;
}

// The last context tried stays for the session, so that a look at a flag does not lose it.
const STORAGE_KEY = 'flagpole.playground';

export function savedDraft(): Partial<Draft> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Draft>;
  } catch {
    return {};
  }
}

/** Keeps the context tried for the session. */
export function saveDraft(draft: Draft): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(draft));
}

/**
 * The request a draft makes: the plain playground for one environment and one context, the
 * advanced one when several environments are chosen or a field has several comma-separated values.
 */
export function requestOf(draft: Draft): Request {
  const context: Record<string, unknown> = {};
  const properties: Record<string, string> = {};
  const problems = draft.properties.flatMap((p, i) =>
    !p.name.trim() && p.value.trim()
      ? [{ path: `properties.${i}.name`, message: 'Give the property a name.' }]
      : [],
  );
  if (problems.length > 0) throw new ApiError(400, 'ValidationError', 'A property has no name.', problems);
  for (const [name, text] of Object.entries(draft.fields)) {
    const value = name === 'currentTime' && text ? isoFromLocalInput(text) : text.trim();
    if (!value) continue;
    if (STANDARD_FIELDS.includes(name)) context[name] = value;
    else properties[name] = value;
  }
  for (const p of draft.properties) if (p.name.trim()) properties[p.name.trim()] = p.value.trim();
  if (Object.keys(properties).length > 0) context.properties = properties;
  const projects = draft.allProjects ? '*' : draft.projects;
  const values = [...Object.values(draft.fields), ...draft.properties.map((p) => p.value)];
  const advanced = draft.environments.length !== 1 || values.some((v) => v.includes(','));
  return advanced
    ? { advanced, body: { environments: draft.environments, projects, context } }
    : { advanced, body: { environment: draft.environments[0], projects, context } };
}

/** The server's message about a field of the context, whether SDKs send it at the top or in `properties`. */
export function fieldError(form: Form<Draft>, name: string): string | undefined {
  return form.errorAt(`context.${name}`) ?? form.errorAt(`context.properties.${name}`);
}
