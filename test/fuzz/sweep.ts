import type { TestServer } from '../server.js';
import type { Fixture } from './fixture.js';
import type { Operation, Parameter } from './openapi.js';

const MAX_COMBINATIONS = 48;
let sweeps = 0;

/** Every way of filling `params` from the pools (at most MAX_COMBINATIONS), or null when one has no pool. */
function combinations(params: Parameter[], fixture: Fixture): Record<string, string>[] | null {
  let combos: Record<string, string>[] = [{}];
  for (const p of params) {
    // A pool is filled by name; a parameter that shares a name but takes another form (the
    // search's `project=IS:default`) gets only the values that fit, or is left out when optional.
    const fits = p.schema.pattern ? new RegExp(p.schema.pattern) : null;
    const values = fixture.pools[p.name]?.filter((v) => !fits || fits.test(String(v)));
    if (!values?.length) {
      if (!p.required || p.schema.default !== undefined) continue;
      return null;
    }
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [p.name]: String(v) })));
    combos = combos.slice(0, MAX_COMBINATIONS);
  }
  return combos;
}

export interface SweepResult {
  /** Reads that answered 2xx with the fixture's values. */
  answered: number;
  /** Reads whose parameters the fixture has no values for: not checked. */
  uncovered: string[];
  /** Reads no combination of the fixture's values and credentials could get a 2xx from. */
  failed: string[];
}

/**
 * The valid side of the fuzz: every read of the API, filled with the fixture's values, must answer
 * 2xx for at least one combination of them (a pool holds several projects, ids, names) with the
 * credential its audience takes (an admin token, else an Admin's PAT for the paths that need a user).
 */
export async function sweepReads(server: TestServer, fixture: Fixture, operations: Operation[]) {
  const result: SweepResult = { answered: 0, uncovered: [], failed: [] };
  // An address of its own, as a new visitor: the public paths' per-address rate limits count the
  // reads of earlier sweeps against the address that made them.
  sweeps++;
  const remoteAddress = `198.18.${(sweeps >> 8) & 255}.${sweeps & 255}`;
  for (const op of operations.filter((o) => o.method === 'GET')) {
    const paths = combinations(op.pathParams, fixture);
    const queries = combinations(op.query, fixture);
    if (!paths || !queries) {
      result.uncovered.push(`GET ${op.path}`);
      continue;
    }
    const credentials = ['audience', 'adminUser'] as const;
    let ok = false;
    const tried: string[] = [];
    search: for (const params of paths) {
      let url = op.path;
      for (const [k, v] of Object.entries(params)) url = url.replace(`{${k}}`, encodeURIComponent(v));
      for (const query of queries.slice(0, 4)) {
        const qs = new URLSearchParams(query).toString();
        const full = qs ? `${url}?${qs}` : url;
        for (const name of credentials) {
          const { authorization, cookie } = fixture.credentials.resolve(name, full);
          const res = await server.request('GET', full, { token: authorization, cookie, remoteAddress });
          if (res.status >= 200 && res.status < 300) {
            ok = true;
            break search;
          }
          tried.push(`${full} as ${name}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    }
    if (ok) result.answered++;
    else result.failed.push(`GET ${op.path}\n    ${tried.slice(0, 4).join('\n    ')}`);
  }
  return result;
}
