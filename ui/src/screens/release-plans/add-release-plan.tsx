import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { projectTemplatesPath, type ReleaseTemplate } from '../../api/releases';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { SelectField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';

interface Props {
  project: string;
  environment: { name: string; enabled: boolean };
  /** `…/environments/<e>`. */
  base: string;
  onAdded(): Promise<unknown>;
}

/** The templates offered in the project, read when the user asks to add a plan. */
function TemplateChoice({ project, environment, base, onAdded, onCancel }: Props & { onCancel(): void }) {
  const templates = useResource<ReleaseTemplate[]>(projectTemplatesPath(project));
  const form = useForm({ templateId: '' });
  const list = templates.data ?? [];
  const chosen = form.values.templateId || list[0]?.id || '';
  const add = async () => {
    await api.post(`${base}/release-plans`, { templateId: chosen });
    await onAdded();
  };
  if (templates.loading) return <p class="loading">Loading the release templates…</p>;
  if (list.length === 0) {
    return (
      <p class="muted">
        There are no release templates to make a plan from. <Button onClick={onCancel}>Close</Button>
      </p>
    );
  }
  return (
    <Form
      class="inline-form"
      label={`Release plan in ${environment.name}`}
      error={form.error}
      onSubmit={form.onSubmit(add)}
    >
      <SelectField
        label="Release template"
        value={chosen}
        choices={list.map((t) => ({ value: t.id, label: t.name }))}
        onValue={(id) => form.set('templateId', id)}
        hint={
          environment.enabled
            ? `${environment.name} is on: the first milestone starts at once.`
            : 'Its milestones start when you start them.'
        }
      />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Add plan
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </Form>
  );
}

/** "Add release plan": milestones made from a template, served before the environment's strategies. */
export function AddReleasePlan(props: Props) {
  const [open, setOpen] = useState(false);
  if (open) return <TemplateChoice {...props} onCancel={() => setOpen(false)} />;
  return (
    <Button
      class="release-plan-add"
      onClick={() => setOpen(true)}
      aria-label={`Add release plan in ${props.environment.name}`}
    >
      Add release plan
    </Button>
  );
}
