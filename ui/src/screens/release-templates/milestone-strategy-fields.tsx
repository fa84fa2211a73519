import { useState } from 'preact/hooks';
import type { ContextField, Segment, StrategyType } from '../../api/types';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/fields';
import { ConstraintsEditor } from '../../constraints/constraints-editor';
import { SegmentPicker } from '../flag/segment-picker';
import { defaultParameters, StrategyParameters } from '../flag/strategy-parameters';
import type { StrategyDraft } from './template-draft';

export interface StrategyChoices {
  types: StrategyType[];
  contextFields: ContextField[];
  segments: Segment[];
}

interface Props extends StrategyChoices {
  strategy: StrategyDraft;
  /** Names the strategy for screen readers: "Strategy 1 of Ten percent". */
  label: string;
  onChange(strategy: StrategyDraft): void;
  onRemove(): void;
  /** The server's message for a path inside this strategy (`parameters.rollout`). */
  errorAt(path: string): string | undefined;
}

/** One strategy of a milestone: its type, title and parameters, and (folded) its targeting. */
export function MilestoneStrategyFields({
  strategy,
  label,
  onChange,
  onRemove,
  errorAt,
  types,
  contextFields,
  segments,
}: Props) {
  const type = types.find((t) => t.name === strategy.name);
  const set = (part: Partial<StrategyDraft>) => onChange({ ...strategy, ...part });
  const targeting = strategy.constraints.length + strategy.segments.length;
  // Open at first where there is targeting to see; then as the user leaves it.
  const [openAtFirst] = useState(targeting > 0);
  return (
    <fieldset class="milestone-strategy">
      <legend>{label}</legend>
      <div class="row">
        <SelectField
          label="Strategy type"
          value={strategy.name}
          choices={types
            .filter((t) => !t.deprecated || t.name === strategy.name)
            .map((t) => ({ value: t.name, label: t.displayName || t.name }))}
          onValue={(name) =>
            // A template's group id stays empty: each plan gives it its flag's name.
            set({
              name,
              parameters: defaultParameters(
                name,
                '',
                types.find((t) => t.name === name),
              ),
            })
          }
          error={errorAt('name')}
        />
        <TextField
          label="Title (optional)"
          value={strategy.title}
          onValue={(title) => set({ title })}
          error={errorAt('title')}
        />
      </div>
      <StrategyParameters
        type={type}
        parameters={strategy.parameters}
        onChange={(parameters) => set({ parameters })}
        contextFields={contextFields}
        errorAt={errorAt}
      />
      {strategy.name === 'flexibleRollout' && (
        <p class="field-hint">An empty group id becomes the flag's name in each plan.</p>
      )}
      <details class="milestone-targeting" open={openAtFirst}>
        <summary>Targeting{targeting > 0 ? ` (${targeting})` : ''}</summary>
        <ConstraintsEditor
          constraints={strategy.constraints}
          onChange={(constraints) => set({ constraints })}
          contextFields={contextFields}
          errorAt={errorAt}
        />
        <SegmentPicker
          segments={segments}
          chosen={strategy.segments}
          onChange={(ids) => set({ segments: ids })}
          error={errorAt('segments')}
        />
      </details>
      <Button variant="quiet" onClick={onRemove} aria-label={`Remove ${label}`}>
        Remove strategy
      </Button>
    </fieldset>
  );
}
