import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading } from './status';

type Loader<P> = () => Promise<ComponentType<P>>;

/** A component whose code is fetched when it is first shown, so the first screen does not wait for it. */
export function lazy<P extends object>(load: Loader<P>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  return function Lazy(props: P) {
    const [component, setComponent] = useState<{ c?: ComponentType<P>; error?: Error }>({ c: loaded });
    useEffect(() => {
      if (loaded) return;
      load().then(
        (c) => {
          loaded = c;
          setComponent({ c });
        },
        (error: Error) => setComponent({ error }),
      );
    }, []);
    if (component.error) return <ErrorMessage error={component.error} />;
    if (!component.c) return <Loading />;
    const Component = component.c;
    return <Component {...props} />;
  };
}
