import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { Button } from './button';

export interface ConfirmRequest {
  title: string;
  /** What will happen, in words the user can check. */
  body: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
}

type Ask = (request: ConfirmRequest) => Promise<boolean>;
const ConfirmContext = createContext<Ask>(async () => false);

/** Asks the user to confirm a dangerous action; answers whether they did. */
export function useConfirm(): Ask {
  return useContext(ConfirmContext);
}

interface Pending extends ConfirmRequest {
  answer(confirmed: boolean): void;
}

/** Holds the one confirmation dialog of the app (a modal `<dialog>`: focus stays inside, Escape cancels). */
export function ConfirmProvider({ children }: { children: ComponentChildren }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const ask = useCallback<Ask>(
    (request) => new Promise((resolve) => setPending({ ...request, answer: resolve })),
    [],
  );
  useEffect(() => {
    if (pending && !dialog.current?.open) dialog.current?.showModal();
  }, [pending]);

  const close = (confirmed: boolean) => {
    pending?.answer(confirmed);
    setPending(null);
    dialog.current?.close();
  };

  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      <dialog
        ref={dialog}
        class="dialog"
        aria-labelledby="confirm-title"
        aria-describedby="confirm-body"
        onCancel={(e) => {
          e.preventDefault();
          close(false);
        }}
      >
        {pending && (
          <form
            method="dialog"
            onSubmit={(e) => {
              e.preventDefault();
              close(true);
            }}
          >
            <h2 id="confirm-title">{pending.title}</h2>
            <div id="confirm-body" class="dialog-body">
              {pending.body}
            </div>
            <div class="actions">
              <Button onClick={() => close(false)} autoFocus>
                Cancel
              </Button>
              <Button type="submit" variant={pending.danger ? 'danger' : 'primary'}>
                {pending.confirmLabel}
              </Button>
            </div>
          </form>
        )}
      </dialog>
    </ConfirmContext.Provider>
  );
}
