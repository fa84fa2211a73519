/** What came back: an HTTP answer, or a connection that failed before one (reset, refused, cut). */
export type Outcome =
  | { answered: true; status: number; body: any; text: string; headers: Headers }
  | { answered: false; error: string };

export interface CallOptions {
  token?: string;
  cookie?: string;
  body?: unknown;
  timeoutMs?: number;
}

/** One request as a client would send it; a connection failure is an outcome, not an exception. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = options.token;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
  } catch (error) {
    return { answered: false, error: describeFailure(error) };
  }
  let text: string;
  try {
    text = await res.text();
  } catch (error) {
    // The status line arrived but not the whole body: no complete answer either.
    return { answered: false, error: `body cut: ${describeFailure(error)}` };
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { answered: true, status: res.status, body, text, headers: res.headers };
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** Like `call`, for requests that must be answered with `status`: anything else throws, saying what came. */
export async function expectStatus(
  base: string,
  method: string,
  path: string,
  status: number,
  options: CallOptions = {},
): Promise<any> {
  const outcome = await call(base, method, path, options);
  if (!outcome.answered || outcome.status !== status) {
    throw new Error(
      `${method} ${path}: expected ${status}, got ${outcome.answered ? `${outcome.status} ${outcome.text}` : outcome.error}`,
    );
  }
  return outcome.body;
}
