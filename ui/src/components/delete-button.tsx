import type { ComponentChildren } from 'preact';
import { useAction } from '../forms/use-action';
import { Button } from './button';
import { type ConfirmRequest, useConfirm } from './confirm';
import { Problem } from './status';

/** Runs an action: one the caller also uses for its other buttons, so they are busy together. */
interface Runner {
  run(action: () => Promise<unknown>): Promise<unknown>;
  busy?: boolean;
}

interface Props {
  /** What the confirmation dialog asks: a dangerous action, said in words the user can check. */
  confirm: Omit<ConfirmRequest, 'danger'>;
  /** Deletes the thing, then whatever follows (a reload, another page). */
  onDelete(): Promise<unknown>;
  /**
   * The caller's runner, busy state and error shown where the caller shows them. Without it the
   * button keeps its own, and shows its error before itself.
   */
  action?: Runner;
  class?: string;
  'aria-label'?: string;
  /** The button's text: Delete unless said. */
  children?: ComponentChildren;
}

/** A danger button that asks first, then deletes (or archives, or removes). */
export function DeleteButton({ confirm: request, onDelete, action, children = 'Delete', ...props }: Props) {
  const confirm = useConfirm();
  const own = useAction();
  const runner = action ?? own;
  const remove = async () => {
    if (await confirm({ ...request, danger: true })) await runner.run(onDelete);
  };
  return (
    <>
      {!action && <Problem message={own.problem} />}
      <Button variant="danger" onClick={remove} busy={runner.busy} {...props}>
        {children}
      </Button>
    </>
  );
}
