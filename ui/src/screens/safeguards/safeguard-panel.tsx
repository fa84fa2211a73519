import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import type { Safeguard, SafeguardInput } from '../../api/releases';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { formatDateTime } from '../../format';
import { SafeguardForm } from './safeguard-form';
import { safeguardWords } from './safeguard-words';

interface Props {
  /** The safeguard there is (one at most). */
  safeguard: Safeguard | undefined;
  /** `…/safeguards`: PUT sets it, DELETE `…/safeguards/<id>` removes it. */
  path: string;
  canEdit: boolean;
  /** What it does when it trips, after "the safeguard": "pauses the plan's progressions". */
  action: string;
  /** What it guards, in the buttons' names: "the release plan", "production". */
  subject: string;
  /** The add button's text, where another safeguard's may be near: "Add safeguard to production". */
  addText?: string;
  onChanged(): Promise<unknown>;
}

/**
 * The safeguard of a plan or of a flag's environment, in words, with when it last tripped; set,
 * changed and removed here by those who may.
 */
export function SafeguardPanel({
  safeguard,
  path,
  canEdit,
  action,
  subject,
  addText = 'Add safeguard',
  onChanged,
}: Props) {
  const [editing, setEditing] = useState(false);
  const save = async (input: SafeguardInput) => {
    await api.put(path, input);
    setEditing(false);
    await onChanged();
  };
  if (editing) {
    return (
      <SafeguardForm
        initial={safeguard ?? null}
        action={action}
        onSave={save}
        onCancel={() => setEditing(false)}
      />
    );
  }
  if (!safeguard) {
    return canEdit ? (
      <Button
        variant="quiet"
        class="safeguard-add"
        onClick={() => setEditing(true)}
        aria-label={`Add safeguard to ${subject}`}
      >
        {addText}
      </Button>
    ) : null;
  }
  return (
    <div class={`safeguard${safeguard.triggeredAt ? ' safeguard-tripped' : ''}`}>
      <p>
        <span class="label">Safeguard:</span> {safeguardWords(safeguard)}.
      </p>
      {safeguard.triggeredAt && (
        <p class="safeguard-trip" role="status">
          Triggered at {formatDateTime(safeguard.triggeredAt)}
        </p>
      )}
      {canEdit && (
        <div class="actions">
          <Button
            variant="quiet"
            onClick={() => setEditing(true)}
            aria-label={`Change the safeguard of ${subject}`}
          >
            Change
          </Button>
          <DeleteButton
            confirm={{
              title: `Remove the safeguard of ${subject}?`,
              body: (
                <p>
                  Nothing watches “{safeguard.impactMetric.metricName}” for {subject} any more.
                </p>
              ),
              confirmLabel: 'Remove safeguard',
            }}
            onDelete={async () => {
              await api.del(`${path}/${seg(safeguard.id)}`);
              await onChanged();
            }}
            aria-label={`Remove the safeguard of ${subject}`}
          >
            Remove
          </DeleteButton>
        </div>
      )}
    </div>
  );
}
