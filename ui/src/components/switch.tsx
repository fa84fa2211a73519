interface Props {
  checked: boolean;
  /** Read by screen readers and shown as a tooltip: what the switch turns on and off. */
  label: string;
  onToggle(): void;
  disabled?: boolean;
  busy?: boolean;
}

/**
 * An on/off switch: a button with the switch role, so Space and Enter flip it. While its change is
 * on its way it stays focusable and ignores presses: a disabled button would drop the keyboard's
 * focus to the page.
 */
export function Switch({ checked, label, onToggle, disabled, busy }: Props) {
  return (
    <button
      type="button"
      role="switch"
      class="switch"
      aria-checked={checked}
      aria-label={label}
      title={label}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      disabled={disabled}
      onClick={busy ? undefined : onToggle}
    >
      <span class="switch-track" aria-hidden="true">
        <span class="switch-thumb" />
      </span>
    </button>
  );
}
