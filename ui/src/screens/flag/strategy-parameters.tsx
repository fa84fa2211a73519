import type { ContextField, StrategyType } from '../../api/types';
import { CheckboxField, SelectField, TextField } from '../../components/fields';

interface Props {
  type: StrategyType | undefined;
  parameters: Record<string, string>;
  onChange(parameters: Record<string, string>): void;
  contextFields: ContextField[];
  errorAt(path: string): string | undefined;
}

// The built-in strategies' parameters, named for people; custom ones keep their own names.
const PARAMETER_LABELS: Record<string, string> = {
  rollout: 'Rollout',
  stickiness: 'Stickiness',
  groupId: 'Group id',
  userIds: 'User ids',
  hostNames: 'Host names',
  IPs: 'IP addresses',
};

/**
 * The values a new strategy of this type starts with: a gradual rollout reaches everyone by the
 * default stickiness; a custom type's yes-or-no parameters start at no, as their checkbox shows.
 */
export function defaultParameters(
  name: string,
  feature: string,
  type?: StrategyType,
): Record<string, string> {
  if (name === 'flexibleRollout') return { rollout: '100', stickiness: 'default', groupId: feature };
  const parameters: Record<string, string> = {};
  for (const p of type?.parameters ?? []) if (p.type === 'boolean') parameters[p.name] = 'false';
  return parameters;
}

/**
 * Each stickiness once: the SDKs' own (default, random, userId, sessionId), the context fields
 * marked for it, and the current value whatever it is.
 */
function stickinessChoices(contextFields: ContextField[], current: string) {
  const names = new Set(['default', 'random', 'userId', 'sessionId']);
  for (const field of contextFields) if (field.stickiness) names.add(field.name);
  if (current) names.add(current);
  return [...names].map((n) => ({ value: n, label: n }));
}

/** One input per parameter of the strategy type, each as its type asks. */
export function StrategyParameters({ type, parameters, onChange, contextFields, errorAt }: Props) {
  if (!type) return null;
  const set = (name: string, value: string) => onChange({ ...parameters, [name]: value });
  return (
    <fieldset class="parameters">
      <legend>Parameters</legend>
      {type.parameters.length === 0 && <p class="muted">This strategy has no parameters.</p>}
      {type.parameters.map((p) => {
        const value = parameters[p.name] ?? '';
        const label = PARAMETER_LABELS[p.name] ?? p.name;
        const common = { label, hint: p.description, error: errorAt(`parameters.${p.name}`) };
        // Built-in types fill in what they need; a custom type's required parameters must be given.
        const required = type.editable !== false && p.required === true;
        if (p.name === 'stickiness') {
          return (
            <SelectField
              key={p.name}
              {...common}
              value={value || 'default'}
              choices={stickinessChoices(contextFields, value)}
              onValue={(v) => set(p.name, v)}
            />
          );
        }
        if (p.type === 'percentage') {
          return (
            <div key={p.name} class="percentage">
              <TextField
                {...common}
                label={`${label} (%)`}
                type="number"
                min={0}
                max={100}
                inputMode="numeric"
                required={required}
                value={value}
                onValue={(v) => set(p.name, v)}
              />
              <input
                type="range"
                min={0}
                max={100}
                value={value || '0'}
                aria-label={`${label}, as a slider`}
                onInput={(e) => set(p.name, e.currentTarget.value)}
              />
            </div>
          );
        }
        if (p.type === 'boolean') {
          return (
            <CheckboxField
              key={p.name}
              {...common}
              checked={value === 'true'}
              onValue={(on) => set(p.name, String(on))}
            />
          );
        }
        return (
          <TextField
            key={p.name}
            {...common}
            hint={
              p.type === 'list' ? `${p.description ?? ''} Separate values with commas.`.trim() : p.description
            }
            type={p.type === 'number' ? 'number' : 'text'}
            step={p.type === 'number' ? 'any' : undefined}
            required={required}
            value={value}
            onValue={(v) => set(p.name, v)}
          />
        );
      })}
    </fieldset>
  );
}
