import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

interface FieldFrame {
  label: ComponentChildren;
  /** The server's message about this field. */
  error?: string;
  hint?: ComponentChildren;
}

/** Label, control, hint and error wired together: the control is described by both. */
function Frame({
  id,
  label,
  error,
  hint,
  children,
}: FieldFrame & { id: string; children: ComponentChildren }) {
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

function describedBy(id: string, { error, hint }: FieldFrame): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

/** The attributes of a text input a form here sets. */
interface InputOptions {
  type?: 'text' | 'email' | 'password' | 'number' | 'search' | 'url' | 'date' | 'datetime-local';
  name?: string;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  min?: number;
  max?: number;
  step?: number | 'any';
  autoFocus?: boolean;
  /** The id of a `<datalist>` of suggested values. */
  list?: string;
  onKeyDown?(event: KeyboardEvent): void;
}

type InputProps = InputOptions & FieldFrame & { value: string; onValue(value: string): void };

export function TextField({ label, error, hint, value, onValue, ...options }: InputProps) {
  const id = useId();
  // Preact types an input's attributes by the literal of its `type`; here the type is a value.
  const attributes = options as InputHTMLAttributes<HTMLInputElement>;
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, error, hint })}
        {...attributes}
      />
    </Frame>
  );
}

type TextAreaProps = FieldFrame & {
  value: string;
  onValue(value: string): void;
  rows?: number;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
};

export function TextAreaField({ label, error, hint, value, onValue, ...props }: TextAreaProps) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, error, hint })}
        {...props}
      />
    </Frame>
  );
}

export interface Choice {
  value: string;
  label: string;
}

type SelectProps = FieldFrame & {
  value: string;
  choices: Choice[];
  onValue(value: string): void;
  disabled?: boolean;
  required?: boolean;
};

export function SelectField({ label, error, hint, value, choices, onValue, ...props }: SelectProps) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        value={value}
        onChange={(e) => onValue(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, error, hint })}
        {...props}
      >
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

interface CheckboxProps extends FieldFrame {
  checked: boolean;
  onValue(checked: boolean): void;
  disabled?: boolean;
}

export function CheckboxField({ label, error, hint, checked, onValue, disabled }: CheckboxProps) {
  const id = useId();
  return (
    <div class={`field field-checkbox${error ? ' field-invalid' : ''}`}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onValue(e.currentTarget.checked)}
        aria-describedby={describedBy(id, { label, error, hint })}
      />
      <label for={id}>{label}</label>
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
