import { useState } from 'preact/hooks';

export interface Action {
  /** Runs an action; its error's message is kept in `problem`. Answers whether it succeeded. */
  run(action: () => Promise<unknown>): Promise<boolean>;
  busy: boolean;
  problem: string | undefined;
}

/**
 * A button's action that talks to the server: busy while it runs, and what went wrong. `after`
 * runs when an action succeeded (a list read again: its counts and order are the server's).
 */
export function useAction(after?: () => Promise<unknown>): Action {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await action();
      await after?.();
      return true;
    } catch (error) {
      setProblem((error as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, problem };
}
