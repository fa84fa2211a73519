import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import { type ReleaseTemplate, TEMPLATES_PATH } from '../../api/releases';
import { Button } from '../../components/button';
import { TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { required } from '../../forms/checks';
import { useForm } from '../../forms/use-form';
import { useLeaveGuard } from '../../forms/use-leave-guard';
import { Link, navigate } from '../../router';
import { MilestoneFields } from './milestone-fields';
import type { StrategyChoices } from './milestone-strategy-fields';
import { moved, newMilestone, type TemplateDraft, templateBody, templateDraft } from './template-draft';

export const TEMPLATES_HREF = '/release-templates';

interface Props extends StrategyChoices {
  template: ReleaseTemplate | null;
}

/**
 * A template's name, description and milestones in order, saved whole: the server replaces the
 * milestones of a template with those sent.
 */
export function TemplateForm({ template, ...choices }: Props) {
  const [initial] = useState(() => templateDraft(template));
  const form = useForm<TemplateDraft>(initial, { conflictField: 'name', checks: { name: required } });
  const { values } = form;
  const guard = useLeaveGuard(JSON.stringify(values) !== JSON.stringify(initial), 'this template');
  const milestones = values.milestones;
  const setMilestones = (list: TemplateDraft['milestones']) => form.set('milestones', list);

  const save = async (draft: TemplateDraft) => {
    const body = templateBody(draft);
    if (template) await api.put(`${TEMPLATES_PATH}/${seg(template.id)}`, body);
    else await api.post(TEMPLATES_PATH, body);
    guard.release();
    navigate(TEMPLATES_HREF);
  };
  return (
    <Form label="Release template" error={form.error} onSubmit={form.onSubmit(save)}>
      <TextField label="Name" required {...form.field('name')} />
      <TextAreaField label="Description" rows={2} {...form.field('description')} />
      <h2>Milestones</h2>
      <p class="muted">
        A plan runs its milestones in this order: while one is started, SDKs get its strategies.
      </p>
      <ol class="milestone-editors">
        {milestones.map((milestone, m) => (
          <MilestoneFields
            key={milestone.key}
            {...choices}
            milestone={milestone}
            index={m}
            count={milestones.length}
            onChange={(changed) => setMilestones(milestones.map((x, i) => (i === m ? changed : x)))}
            onMove={(by) => setMilestones(moved(milestones, m, by))}
            onRemove={() => setMilestones(milestones.filter((_, i) => i !== m))}
            errorAt={form.errorAt}
          />
        ))}
      </ol>
      <Button
        class="add-milestone"
        onClick={() => setMilestones([...milestones, newMilestone(`Milestone ${milestones.length + 1}`)])}
      >
        Add milestone
      </Button>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {template ? 'Save template' : 'Create template'}
        </Button>
        <Link href={TEMPLATES_HREF} class="button button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
