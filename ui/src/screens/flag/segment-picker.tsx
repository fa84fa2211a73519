import type { Segment } from '../../api/types';
import { CheckboxField } from '../../components/fields';

interface Props {
  segments: Segment[];
  chosen: number[];
  onChange(ids: number[]): void;
  error?: string;
}

/** The segments a strategy uses: each adds its constraints to the strategy's own. */
export function SegmentPicker({ segments, chosen, onChange, error }: Props) {
  return (
    <fieldset class="segment-picker">
      <legend>Segments</legend>
      {segments.length === 0 ? (
        <p class="muted">There are no segments yet.</p>
      ) : (
        segments.map((s) => (
          <CheckboxField
            key={s.id}
            label={s.name}
            hint={s.description ?? undefined}
            checked={chosen.includes(s.id)}
            onValue={(on) => onChange(on ? [...chosen, s.id] : chosen.filter((id) => id !== s.id))}
          />
        ))
      )}
      {error && <p class="field-error">{error}</p>}
    </fieldset>
  );
}
