import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';

interface Props {
  label: ComponentChildren;
  /** Read by screen readers when the label is not words alone. */
  ariaLabel?: string;
  children: ComponentChildren;
  align?: 'left' | 'right';
}

/** A button that shows a list of links below it; Escape, a click elsewhere or a choice closes it. */
export function Disclosure({ label, ariaLabel, children, align = 'left' }: Props) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  // Listening from the render that opens it: a plain effect waits for the next frame, and a key
  // pressed before then (Escape at once) would find nobody listening and leave the panel open.
  useLayoutEffect(() => {
    if (!open) return;
    // A click elsewhere, or on one of its links, closes it.
    const onClick = (e: Event) => {
      const target = e.target as HTMLElement;
      if (!root.current?.contains(target) || panel.current?.contains(target.closest('a, button')))
        setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('click', onClick);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div class="disclosure" ref={root}>
      <button
        type="button"
        ref={button}
        class="disclosure-button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={ariaLabel}
        onClick={() => setOpen(!open)}
      >
        {label}
        <span aria-hidden="true"> ▾</span>
      </button>
      <div id={id} ref={panel} class={`disclosure-panel disclosure-${align}`} hidden={!open}>
        {children}
      </div>
    </div>
  );
}
