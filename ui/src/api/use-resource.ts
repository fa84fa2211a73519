import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, api } from './client';

export interface Resource<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** Reads it again; what was shown stays until the new answer is there. */
  reload(): Promise<void>;
  /** Changes what is shown after a change the server confirmed, without reading it all again. */
  mutate(change: (data: T) => T): void;
}

/**
 * A GET of the API, read when the path changes (null: nothing to read yet). With `keep`, what the
 * last path answered stays shown until the new answer is there (the next page of a list).
 */
export function useResource<T>(path: string | null, options: { keep?: boolean } = {}): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({
    loading: path !== null,
  });
  const latest = useRef(path);
  latest.current = path;

  const load = useCallback(async () => {
    if (path === null) return;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await api.get<T>(path);
      if (latest.current === path) setState({ data, loading: false });
    } catch (error) {
      if (latest.current === path) setState({ error: error as ApiError, loading: false });
    }
  }, [path]);

  const keep = options.keep === true;
  useEffect(() => {
    setState((s) =>
      keep && s.data !== undefined ? { data: s.data, loading: true } : { loading: path !== null },
    );
    load();
  }, [load, path, keep]);

  const mutate = useCallback((change: (data: T) => T) => {
    setState((s) => (s.data === undefined ? s : { ...s, data: change(s.data) }));
  }, []);

  return { data: state.data, error: state.error, loading: state.loading, reload: load, mutate };
}
