import { useCallback, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { friendlyMessage, joinMessages } from './friendly-errors';

export interface FormOptions<V> {
  /** The field a 409 (a name or id taken) is about: the server names it only in its message. */
  conflictField?: string;
  /**
   * Rules checked before the request is sent, by field: a message when the value breaks one.
   * The server checks again; these only spare a round trip and say it sooner.
   */
  checks?: { [K in keyof V]?: (value: V[K]) => string | undefined };
}

/** The keys of `V` whose values are a `T`. */
type KeysOf<V, T> = { [K in keyof V]-?: V[K] extends T ? K : never }[keyof V] & string;

/** What a text, text area or select field takes to show one of the form's values, change it and show its error. */
export interface BoundField {
  value: string;
  onValue(value: string): void;
  error: string | undefined;
}

/** What a checkbox field takes to show one of the form's values, change it and show its error. */
export interface BoundCheckbox {
  checked: boolean;
  onValue(checked: boolean): void;
  error: string | undefined;
}

export interface Form<V> {
  values: V;
  set<K extends keyof V>(key: K, value: V[K]): void;
  /** Replaces the values (a change of several fields at once). */
  update(change: (values: V) => V): void;
  /** The server's message for a field, by the path its `details` name it with (`constraints.0.value`). */
  errorAt(path: string): string | undefined;
  /** A field bound to the value `key`: spread into a TextField, TextAreaField or SelectField. */
  field(key: KeysOf<V, string>): BoundField;
  /** A checkbox bound to the value `key`: spread into a CheckboxField. */
  checkbox(key: KeysOf<V, boolean>): BoundCheckbox;
  /** The paths the server found a problem at in the last submission (to point at a hidden tab). */
  problemPaths: string[];
  /** What the server said about the whole request, shown above the fields. */
  error: string | undefined;
  submitting: boolean;
  /** An onSubmit handler: runs `action`, and on an error keeps every value and shows what the server said. */
  onSubmit(action: (values: V) => Promise<unknown>): (event: Event) => Promise<void>;
}

/** The paths of `details` as the UI spells them: `a.0.b` (the server may write `/a/0/b`). */
function normalizePath(path: string): string {
  return path.replace(/^\/+/, '').replace(/\//g, '.');
}

/**
 * What the message above the fields says when every problem is shown beside its field: the
 * problems once, where they are, rather than twice.
 */
export function summaryOf(count: number): string {
  return count === 1
    ? 'The field marked below needs a change.'
    : `The ${count} fields marked below need a change.`;
}

/** The API's message when its `details` say it all: the form says them instead. */
const GENERIC = /^The request is not valid/;
const listOf = (errors: Record<string, string>) =>
  Object.entries(errors)
    .map(([path, message]) => `${path}: ${message}`)
    .join(' ');

function checkValues<V>(values: V, checks: FormOptions<V>['checks']): Record<string, string> {
  const broken: Record<string, string> = {};
  for (const key of Object.keys(checks ?? {}) as (keyof V & string)[]) {
    const message = checks?.[key]?.(values[key]);
    if (message) broken[key] = message;
  }
  return broken;
}

/** A form's values and the server's answer to its last submission. */
export function useForm<V>(initial: V, options: FormOptions<V> = {}): Form<V> {
  const [values, setValues] = useState(initial);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // The paths the form has shown a field (or an error) for: a problem at one of them is shown there.
  const shown = useRef(new Set<string>()).current;
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const set = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
  }, []);

  const showProblems = (errors: Record<string, string>, message: string) => {
    setFieldErrors(errors);
    const paths = Object.keys(errors);
    const allBeside = paths.length > 0 && paths.every((path) => shown.has(path));
    setError(allBeside ? summaryOf(paths.length) : message);
  };

  const onSubmit = (action: (values: V) => Promise<unknown>) => async (event: Event) => {
    event.preventDefault();
    if (submitting) return;
    const broken = checkValues(values, options.checks);
    if (Object.keys(broken).length > 0) return showProblems(broken, Object.values(broken).join(' '));
    setSubmitting(true);
    setError(undefined);
    setFieldErrors({});
    try {
      await action(values);
    } catch (e) {
      if (!(e instanceof ApiError)) {
        setError((e as Error).message);
        return;
      }
      const messages: Record<string, string[]> = {};
      for (const detail of e.details) {
        if (detail.path === undefined) continue;
        const path = normalizePath(detail.path);
        messages[path] = [...(messages[path] ?? []), friendlyMessage(path, detail.message)];
      }
      const errors = Object.fromEntries(Object.entries(messages).map(([p, m]) => [p, joinMessages(m)]));
      if (e.status === 409 && options.conflictField) errors[options.conflictField] = e.message;
      showProblems(errors, GENERIC.test(e.message) ? listOf(errors) : e.message);
    } finally {
      setSubmitting(false);
    }
  };

  return {
    values,
    set,
    update: setValues,
    errorAt: (path) => {
      shown.add(path);
      return fieldErrors[path];
    },
    field: (key) => {
      shown.add(key);
      return {
        value: values[key] as string,
        onValue: (value) => set(key, value as V[typeof key]),
        error: fieldErrors[key],
      };
    },
    checkbox: (key) => {
      shown.add(key);
      return {
        checked: values[key] as boolean,
        onValue: (checked) => set(key, checked as V[typeof key]),
        error: fieldErrors[key],
      };
    },
    problemPaths: Object.keys(fieldErrors),
    error,
    submitting,
    onSubmit,
  };
}
