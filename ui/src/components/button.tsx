import type { ButtonHTMLAttributes } from 'preact';

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'quiet';
  busy?: boolean;
};

/** A button; `busy` while its action runs (it cannot be pressed twice). */
export function Button({ variant = 'secondary', busy, disabled, class: className, type, ...props }: Props) {
  return (
    <button
      type={type ?? 'button'}
      class={`button button-${variant}${className ? ` ${className}` : ''}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...props}
    />
  );
}
