import { useEffect, useRef } from 'preact/hooks';
import { useConfirm } from '../components/confirm';
import { guardLeaving } from '../router';

/**
 * While `dirty`, leaving the page asks first: a link of the app with the app's dialog, a reload or
 * a closed tab with the browser's. Answers `release`, to call before leaving on purpose (saved).
 */
export function useLeaveGuard(dirty: boolean, what: string): { release(): void } {
  const confirm = useConfirm();
  const released = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    released.current = false;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!released.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    const stop = guardLeaving(async () =>
      released.current
        ? true
        : confirm({
            title: 'Leave without saving?',
            body: <p>The changes to {what} are not saved, and will be lost.</p>,
            confirmLabel: 'Leave without saving',
            danger: true,
          }),
    );
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      stop();
    };
  }, [dirty, what, confirm]);
  return {
    release: () => {
      released.current = true;
    },
  };
}
