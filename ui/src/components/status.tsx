import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api/client';
import type { Resource } from '../api/use-resource';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}

export function ErrorMessage({ error }: { error: ApiError | Error }) {
  return (
    <div class="alert alert-error" role="alert">
      {error.message}
    </div>
  );
}

/** What went wrong with the last action, announced when it appears. */
export function Problem({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <div class="alert alert-error" role="alert">
      {message}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

type DataOf<R> = R extends Resource<infer T> ? T : undefined;

interface LoadedProps<R extends readonly (Resource<unknown> | null)[]> {
  /** What must be read first; a null stands for a resource this page does not need (its data: undefined). */
  resources: readonly [...R];
  /** Shown above the error when a read failed (a page's header: loading shows nothing of the page). */
  header?: ComponentChildren;
  /** What loading says: Loading… unless said. */
  label?: string;
  /** How a failed read is shown: its message unless said. */
  renderError?(error: ApiError): ComponentChildren;
  children(...data: { [K in keyof R]: DataOf<R[K]> }): ComponentChildren;
}

/**
 * The resources' data given to `children` once all are read; until then their loading, or the first
 * one's error.
 */
export function Loaded<R extends readonly (Resource<unknown> | null)[]>({
  resources,
  header,
  label,
  renderError = (error) => <ErrorMessage error={error} />,
  children,
}: LoadedProps<R>) {
  const error = resources.find((r) => r?.error)?.error;
  if (error) {
    return (
      <>
        {header}
        {renderError(error)}
      </>
    );
  }
  // A resource being read again keeps what it read: the page stays.
  if (resources.some((r) => r && r.data === undefined && r.loading)) return <Loading label={label} />;
  const data = resources.map((r) => r?.data) as { [K in keyof R]: DataOf<R[K]> };
  return <>{children(...data)}</>;
}
