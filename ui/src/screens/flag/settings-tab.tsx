import { useState } from 'preact/hooks';
import { api, featurePath } from '../../api/client';
import type { FeatureType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { CheckboxField, SelectField, TextAreaField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { useCan } from '../../session';
import { FlagLinks } from './flag-links';
import type { FlagTabProps } from './flag-tab';

/** A flag's description, type and impression data, changed in one save; then its links. */
export function SettingsTab({ project, feature, reload }: FlagTabProps) {
  const canUpdate = useCan('UPDATE_FEATURE', { project });
  const types = useResource<{ types: FeatureType[] }>('/api/admin/feature-types');
  const form = useForm({
    description: feature.description ?? '',
    type: feature.type,
    impressionData: feature.impressionData,
  });
  const [saved, setSaved] = useState(false);
  const typeChoices = (types.data?.types ?? []).map((t) => ({ value: t.id, label: t.name }));
  if (!typeChoices.some((c) => c.value === feature.type)) {
    typeChoices.push({ value: feature.type, label: feature.type });
  }
  const chosenType = types.data?.types.find((t) => t.id === form.values.type);
  return (
    <>
      <Form
        label="Settings"
        error={form.error}
        onSubmit={form.onSubmit(async (values) => {
          setSaved(false);
          // A whole replacement of the metadata: what this form does not show (stale) is sent as it is.
          await api.put(featurePath(project, feature.name), { ...values, stale: feature.stale });
          await reload();
          setSaved(true);
        })}
      >
        <TextAreaField label="Description" disabled={!canUpdate} {...form.field('description')} />
        <SelectField
          label="Type"
          hint={
            chosenType &&
            `${chosenType.description}${chosenType.lifetimeDays ? ` Expected to live ${chosenType.lifetimeDays} days.` : ''}`
          }
          choices={typeChoices}
          disabled={!canUpdate}
          {...form.field('type')}
        />
        <CheckboxField
          label="Impression data"
          hint="SDKs emit an impression event each time they evaluate this flag, for analytics."
          disabled={!canUpdate}
          {...form.checkbox('impressionData')}
        />
        {canUpdate && (
          <div class="actions">
            <Button type="submit" variant="primary" busy={form.submitting} onClick={() => setSaved(false)}>
              Save settings
            </Button>
            {saved && <span role="status">Saved.</span>}
          </div>
        )}
      </Form>
      <FlagLinks project={project} feature={feature} reload={reload} canUpdate={canUpdate} />
    </>
  );
}
