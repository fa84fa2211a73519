/** One entry of an error body's `details`: `path` names the field, dot-separated (`constraints.0.value`). */
export interface ErrorDetail {
  message: string;
  path?: string;
}

/** An answer of 400 and above, with the error body every Flagpole error has. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

type Listener = () => void;
const sessionEndedListeners = new Set<Listener>();

/** Called when the server no longer knows the session (it expired, or the user signed out elsewhere). */
export function onSessionEnded(listener: Listener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

async function errorOf(response: Response): Promise<ApiError> {
  let body: { name?: string; message?: string; details?: ErrorDetail[] } = {};
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
      for (const listener of sessionEndedListeners) listener();
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
