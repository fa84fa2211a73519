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

/** A resource's data given to `children` once read; its loading or its error until then. */
export function Loaded<T>({
  resource,
  children,
}: {
  resource: Resource<T>;
  children(data: T): ComponentChildren;
}) {
  if (resource.data !== undefined) return <>{children(resource.data)}</>;
  if (resource.error) return <ErrorMessage error={resource.error} />;
  return <Loading />;
}
