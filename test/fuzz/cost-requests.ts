import type { Fixture } from './fixture.js';
import { type Kind, largestValues } from './largest.js';
import type { Operation, Parameter } from './openapi.js';
import type { CredentialName } from './requests.js';

/** Who sends a request of the cost run. */
export type Sender = Extract<CredentialName, 'viewer' | 'adminUser' | 'client' | 'frontend'>;

/** A request of the cost run, made before its clock starts. */
export interface CostRequest {
  /** `METHOD /path as sender (kind)`. */
  label: string;
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  bytes: number;
}

/** The request body: Fastify's 1 MiB limit, less room for the margin of the estimate. */
export const BODY_BUDGET = 1024 * 1024 - 1024;
/** The query string: Node refuses a request line and headers over 16 KiB (431). */
const QUERY_BUDGET = 8 * 1024;
/** A path parameter no pool of the fixture fills: as long as its schema lets it be. */
const PATH_BUDGET = 1024;

export function isSdkPath(path: string): boolean {
  return /^\/(api\/client|api\/frontend|edge)(\/|$)/.test(path);
}

/** The kinds of largest inputs an operation takes: both where it has a body or a query, else one. */
export function kindsOf(op: Operation): Kind[] {
  return op.body || op.query.length ? ['many', 'long'] : ['many'];
}

/**
 * The fixture's pool of ids holds one of each kind, in this order: [the Viewer, the segment, the
 * role, the Editor, a feature type, a PAT, the webhook, a release template, a change request]. Which one a path's
 * `{id}` names.
 */
const ID_BY_PATH: [RegExp, number][] = [
  [/^\/api\/admin\/user-admin\//, 0],
  [/^\/api\/admin\/segments\//, 1],
  [/^\/api\/admin\/roles\//, 2],
  [/^\/api\/admin\/feature-types\//, 4],
  [/^\/api\/admin\/user\/tokens\//, 5],
  [/^\/api\/admin\/addons\//, 6],
  [/^\/api\/admin\/release-plan-templates\//, 7],
  [/^\/api\/admin\/projects\/[^/]+\/release-templates\//, 7],
  [/^\/api\/admin\/projects\/[^/]+\/change-requests\//, 8],
];

function pathValue(
  path: string,
  p: Parameter,
  fixture: Fixture,
  make: ReturnType<typeof largestValues>,
): string {
  const fits = p.schema.pattern ? new RegExp(p.schema.pattern) : null;
  const index = p.name === 'id' ? ID_BY_PATH.find(([re]) => re.test(path))?.[1] : undefined;
  const ids = fixture.pools.id ?? [];
  if (index !== undefined && ids[index] !== undefined) return String(ids[index]);
  const pooled = fixture.pools[p.name]?.find((v) => !fits || fits.test(String(v)));
  if (pooled !== undefined) return String(pooled);
  const { value } = make.largest(p.schema, 'long', PATH_BUDGET, p.name);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The largest request of `kind` for `op`: path parameters name the fixture's resources; each
 * query parameter (but `drop`, which would empty the database, and other flags) at its largest
 * within the query's budget; the body at its largest within 1 MiB, or the one given.
 */
export function costRequest(
  op: Operation,
  kind: Kind,
  sender: Sender,
  fixture: Fixture,
  /** A body made otherwise (an import's largest valid document), instead of the schema's. */
  body?: string,
): CostRequest {
  const make = largestValues(fixture.pools);
  let url = op.path;
  for (const p of op.pathParams)
    url = url.replace(`{${p.name}}`, encodeURIComponent(pathValue(op.path, p, fixture, make)));
  const query = op.query.filter((p) => p.schema.type !== 'boolean' && p.name !== 'drop');
  const parts = query.map((p) => {
    const { value } = make.largest(p.schema, kind, Math.floor(QUERY_BUDGET / query.length), p.name);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return `${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`;
  });
  if (parts.length) url += `?${parts.join('&')}`;
  const headers: Record<string, string> = {};
  const { authorization } = fixture.credentials.resolve(sender, url);
  if (authorization) headers.authorization = authorization;
  let payload: string | undefined;
  if (op.body) {
    payload = body ?? make.largest(op.body, kind, BODY_BUDGET).text;
    headers['content-type'] = 'application/json';
  }
  const operation = `${op.method} ${op.path}`;
  return {
    label: `${operation} as ${sender} (${kind})`,
    operation,
    method: op.method,
    url,
    headers,
    payload,
    bytes: payload ? Buffer.byteLength(payload) : 0,
  };
}
