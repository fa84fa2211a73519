import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import type { PlanMilestone } from '../../api/releases';
import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';

interface Props {
  milestone: PlanMilestone;
  next: PlanMilestone;
  /** `…/environments/<e>/progressions`. */
  base: string;
  canUpdate: boolean;
  /** Runs a change of the plan: shows its error, then reads the plan again. */
  run(action: () => Promise<unknown>): Promise<unknown>;
}

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

function positiveWhole(value: string): string | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? undefined : 'A whole number of minutes, 1 or more.';
}

/** How many minutes after a milestone starts the next one starts by itself: set, changed or removed. */
export function ProgressionControl({ milestone, next, base, canUpdate, run }: Props) {
  const [editing, setEditing] = useState(false);
  const interval = milestone.transitionCondition?.intervalMinutes;
  const form = useForm({ minutes: String(interval ?? 5) }, { checks: { minutes: positiveWhole } });
  const path = `${base}/${seg(milestone.id)}`;
  const open = () => {
    form.set('minutes', String(interval ?? 5));
    setEditing(true);
  };
  if (editing) {
    return (
      <Form
        class="inline-form progression-form"
        label={`Automatic progression after ${milestone.name}`}
        error={form.error}
        onSubmit={form.onSubmit(async ({ minutes: typed }) => {
          await api.put(path, {
            targetMilestone: next.id,
            transitionCondition: { intervalMinutes: Number(typed) },
          });
          setEditing(false);
          await run(async () => {});
        })}
      >
        <TextField
          label={`Minutes from the start of ${milestone.name} until ${next.name} starts`}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          required
          {...form.field('minutes')}
        />
        <div class="actions">
          <Button type="submit" variant="primary" busy={form.submitting}>
            Save progression
          </Button>
          <Button onClick={() => setEditing(false)}>Cancel</Button>
        </div>
      </Form>
    );
  }
  if (interval === undefined) {
    return canUpdate ? (
      <Button
        variant="quiet"
        class="progression-add"
        onClick={open}
        aria-label={`Proceed to the next milestone automatically after ${milestone.name}`}
      >
        Proceed to the next milestone automatically
      </Button>
    ) : null;
  }
  return (
    <p class="progression">
      <span>
        {next.name} starts by itself {minutes(interval)} after {milestone.name} starts.
      </span>
      {canUpdate && (
        <span class="actions">
          <Button
            variant="quiet"
            onClick={open}
            aria-label={`Change the progression after ${milestone.name}`}
          >
            Change
          </Button>
          <Button
            variant="quiet"
            onClick={() => run(() => api.del(path))}
            aria-label={`Remove the progression after ${milestone.name}`}
          >
            Remove
          </Button>
        </span>
      )}
    </p>
  );
}
