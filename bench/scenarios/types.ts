/** One measured request, repeated by autocannon for the case's duration. */
export interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A second body, sent on every other request: a write that changes something each time. */
  alternate?: string;
}

/** What a scenario gets to prepare its data: a running Flagpole and credentials for it. */
export interface BenchContext {
  url: string;
  adminToken: string;
  /** A personal access token of an Editor. */
  pat: string;
  /** The Editor's username and password. */
  user: { username: string; password: string };
  /** A JSON request with the admin token; throws unless the answer is 2xx. */
  call(method: string, path: string, body?: unknown): Promise<any>;
  /** Runs a one-off operation (an import) and reports how long it took, beside the load cases. */
  timed(name: string, run: () => Promise<unknown>): Promise<void>;
}

/** A group of cases with the data they need, set up against the running Flagpole. */
export type Scenario = (ctx: BenchContext) => Promise<Case[]>;
