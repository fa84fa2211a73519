import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  onSubmit(event: Event): void;
  /** The server's message about the last submission. */
  error?: string;
  children: ComponentChildren;
  label?: string;
  class?: string;
}

/** A form with the server's answer above its fields, announced and focused when it arrives. */
export function Form({ onSubmit, error, children, label, class: className }: Props) {
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) alert.current?.focus();
  }, [error]);
  return (
    <form class={className ?? 'form'} onSubmit={onSubmit} aria-label={label} noValidate>
      {error && (
        <div class="alert alert-error" role="alert" tabIndex={-1} ref={alert}>
          {error}
        </div>
      )}
      {children}
    </form>
  );
}
