/** One entry of an error body's `details`: `path` names the field, dot-separated (`constraints.0.value`). */
export interface ErrorDetail {
  message: string;
  path?: string;
}

/** Another way to sign in than the password form (OpenID Connect): a link for a button. */
export interface SignInOption {
  type: string;
  /** The button's words, such as "Sign in with OpenID Connect". */
  message: string;
  /** Where the browser goes to begin it. */
  path: string;
}

/** How to sign in, as a 401 to a browser tells it (Unleash's fields). */
export interface SignInChoices {
  /** Password sign-in is turned off: its form is not shown. */
  defaultHidden: boolean;
  options: SignInOption[];
}

/** An answer of 400 and above, with the error body every Flagpole error has. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** A 401's ways to sign in, when it gives them. */
    readonly signIn?: SignInChoices,
  ) {
    super(message);
  }
}

type Listener = (error: ApiError) => void;
const sessionEndedListeners = new Set<Listener>();

/** Called when the server no longer knows the session (it expired, or the user signed out elsewhere). */
export function onSessionEnded(listener: Listener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

function isOption(option: unknown): option is SignInOption {
  const o = option as SignInOption | null;
  return typeof o?.type === 'string' && typeof o.message === 'string' && typeof o.path === 'string';
}

/** The ways to sign in a 401's body names, if it names them. */
function signInChoicesOf(body: { defaultHidden?: unknown; options?: unknown }): SignInChoices | undefined {
  if (body.defaultHidden === undefined && body.options === undefined) return undefined;
  return {
    defaultHidden: body.defaultHidden === true,
    options: Array.isArray(body.options) ? body.options.filter(isOption) : [],
  };
}

async function errorOf(response: Response): Promise<ApiError> {
  let body: {
    name?: string;
    message?: string;
    details?: ErrorDetail[];
    defaultHidden?: unknown;
    options?: unknown;
  } = {};
  try {
    body = await response.json();
  } catch {
    // Not Flagpole's error body (a proxy's page): the status says enough.
  }
  return new ApiError(
    response.status,
    body.name ?? 'Error',
    body.message ?? `The server answered ${response.status} ${response.statusText}.`,
    Array.isArray(body.details) ? body.details : [],
    response.status === 401 ? signInChoicesOf(body) : undefined,
  );
}

/**
 * A request to Flagpole's HTTP API with the session cookie, as any client makes it. Answers the
 * parsed JSON body (undefined when there is none) or throws an ApiError.
 */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (error.status === 401 && path.startsWith('/api/'))
      for (const listener of sessionEndedListeners) listener(error);
    throw error;
  }
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T = void>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T = void>(path: string, body: unknown) => request<T>('PUT', path, body),
  patch: <T = void>(path: string, body: unknown) => request<T>('PATCH', path, body),
  del: <T = void>(path: string) => request<T>('DELETE', path),
};

/** A path segment, encoded. */
export const seg = encodeURIComponent;

/** `/api/admin/projects/<p>/features/<f>`: the base path of one feature. */
export function featurePath(project: string, feature: string): string {
  return `/api/admin/projects/${seg(project)}/features/${seg(feature)}`;
}
