import type { Constraint, ContextField, Operator } from '../api/types';
import { Button } from '../components/button';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../components/fields';
import { OPERATOR_CHOICES, OPERATORS } from './operators';

/** A constraint being edited: `values` keeps empty lines while the user types. */
export type ConstraintDraft = Constraint;

interface Props {
  constraints: ConstraintDraft[];
  onChange(constraints: ConstraintDraft[]): void;
  contextFields: ContextField[];
  /** The server's message for a path of the request body (`constraints.0.value`). */
  errorAt(path: string): string | undefined;
  /** Where the list sits in the request body. */
  path?: string;
}

const blank = (text: string) => text.trim() === '';

/**
 * The constraints as the API takes them: the value field the operator uses, trimmed and without
 * blank lines. What the form does not show of a constraint (the other value field, ignore-case on
 * an operator that does not compare text) goes back as it came: saving must not drop it.
 */
export function cleanConstraints(constraints: ConstraintDraft[]): Constraint[] {
  return constraints.map(({ values, value, caseInsensitive, ...c }) => {
    const kept = { ...c, caseInsensitive: caseInsensitive ?? false };
    const listed = (values ?? []).filter((v) => !blank(v));
    if (OPERATORS[c.operator].multi) {
      const unshown = value !== undefined && !blank(value) ? { value } : {};
      return { ...kept, ...unshown, values: listed.map((v) => v.trim()) };
    }
    return { ...kept, ...(listed.length > 0 ? { values: listed } : {}), value: (value ?? '').trim() };
  });
}

const SINGLE_VALUE_HINTS: Partial<Record<Operator, string>> = {
  DATE_AFTER: 'A date and time such as 2030-01-31T09:00:00Z.',
  DATE_BEFORE: 'A date and time such as 2030-01-31T09:00:00Z.',
  SEMVER_EQ: 'A version such as 1.2.3 or 2.0.0-beta.1.',
  SEMVER_GT: 'A version such as 1.2.3 or 2.0.0-beta.1.',
  SEMVER_LT: 'A version such as 1.2.3 or 2.0.0-beta.1.',
  SEMVER_GTE: 'A version such as 1.2.3 or 2.0.0-beta.1.',
  SEMVER_LTE: 'A version such as 1.2.3 or 2.0.0-beta.1.',
};

function ValuesInput({
  constraint,
  field,
  error,
  onChange,
}: {
  constraint: ConstraintDraft;
  field: ContextField | undefined;
  error: string | undefined;
  onChange(change: Partial<ConstraintDraft>): void;
}) {
  const legal = field?.legalValues ?? [];
  const multi = OPERATORS[constraint.operator].multi;
  if (legal.length > 0 && multi) {
    const chosen = new Set(constraint.values ?? []);
    return (
      <fieldset class="legal-values">
        <legend>Values</legend>
        {legal.map((l) => (
          <CheckboxField
            key={l.value}
            label={l.description ? `${l.value} — ${l.description}` : l.value}
            checked={chosen.has(l.value)}
            onValue={(on) =>
              onChange({ values: on ? [...chosen, l.value] : [...chosen].filter((v) => v !== l.value) })
            }
          />
        ))}
        {error && <p class="field-error">{error}</p>}
      </fieldset>
    );
  }
  if (legal.length > 0) {
    return (
      <SelectField
        label="Value"
        value={constraint.value ?? ''}
        choices={[
          { value: '', label: 'Choose a value' },
          ...legal.map((l) => ({ value: l.value, label: l.value })),
        ]}
        onValue={(value) => onChange({ value })}
        error={error}
      />
    );
  }
  if (multi) {
    return (
      <TextAreaField
        label="Values"
        hint="One value per line."
        rows={3}
        value={(constraint.values ?? []).join('\n')}
        onValue={(text) => onChange({ values: text.split('\n') })}
        error={error}
      />
    );
  }
  return (
    <TextField
      label="Value"
      hint={SINGLE_VALUE_HINTS[constraint.operator]}
      value={constraint.value ?? ''}
      onValue={(value) => onChange({ value })}
      error={error}
    />
  );
}

/** A list of constraints: each a context field, an operator and its values. */
export function ConstraintsEditor({
  constraints,
  onChange,
  contextFields,
  errorAt,
  path = 'constraints',
}: Props) {
  const change = (index: number, part: Partial<ConstraintDraft>) =>
    onChange(constraints.map((c, i) => (i === index ? { ...c, ...part } : c)));
  const add = () =>
    onChange([
      ...constraints,
      { contextName: contextFields[0]?.name ?? 'userId', operator: 'IN', values: [] },
    ]);
  return (
    <div class="constraints-editor">
      {constraints.map((constraint, i) => {
        const at = `${path}.${i}`;
        const field = contextFields.find((f) => f.name === constraint.contextName);
        const fieldChoices = contextFields.map((f) => ({ value: f.name, label: f.name }));
        if (!field) fieldChoices.push({ value: constraint.contextName, label: constraint.contextName });
        return (
          <fieldset key={i} class="constraint-row">
            <legend>Constraint {i + 1}</legend>
            {errorAt(at) && <p class="field-error">{errorAt(at)}</p>}
            <div class="row">
              <SelectField
                label="Context field"
                value={constraint.contextName}
                choices={fieldChoices}
                onValue={(contextName) => change(i, { contextName })}
                error={errorAt(`${at}.contextName`)}
              />
              <SelectField
                label="Operator"
                value={constraint.operator}
                choices={OPERATOR_CHOICES}
                onValue={(operator) => change(i, { operator: operator as Operator })}
                error={errorAt(`${at}.operator`)}
              />
            </div>
            <ValuesInput
              constraint={constraint}
              field={field}
              error={errorAt(`${at}.values`) ?? errorAt(`${at}.value`)}
              onChange={(part) => change(i, part)}
            />
            <div class="row">
              <CheckboxField
                label="Negate (NOT)"
                checked={constraint.inverted ?? false}
                onValue={(inverted) => change(i, { inverted })}
              />
              {OPERATORS[constraint.operator].text && (
                <CheckboxField
                  label="Ignore case"
                  checked={constraint.caseInsensitive ?? false}
                  onValue={(caseInsensitive) => change(i, { caseInsensitive })}
                />
              )}
              <Button
                variant="quiet"
                onClick={() => onChange(constraints.filter((_, j) => j !== i))}
                aria-label={`Remove constraint ${i + 1}`}
              >
                Remove
              </Button>
            </div>
          </fieldset>
        );
      })}
      <Button onClick={add}>Add constraint</Button>
    </div>
  );
}
