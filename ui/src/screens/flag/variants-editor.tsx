import { api, featurePath, seg } from '../../api/client';
import type { Variant } from '../../api/types';
import { changeOrDraft, useDraftEnvironments } from '../../change-requests/drafts';
import { Button } from '../../components/button';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';
import { draftOf, emptyVariant, type VariantDraft, VariantFields, variantOf } from './variant-fields';

interface Props {
  project: string;
  feature: string;
  environment: string;
  variants: Variant[];
  onSaved(): void;
  onCancel(): void;
}

/**
 * A flag's variants in one environment: `variable` ones share what the `fix` ones leave of 100%
 * (the server works the weights out and answers them).
 */
export function VariantsEditor({ project, feature, environment, variants, onSaved, onCancel }: Props) {
  const form = useForm<{ variants: VariantDraft[] }>({ variants: variants.map(draftOf) });
  const drafts = form.values.variants;
  const errorOf = (i: number, field: string) =>
    form.errorAt(`variants.${i}.${field}`) ?? form.errorAt(`${i}.${field}`);
  const add = () => form.set('variants', [...drafts, emptyVariant()]);
  const drafted = useDraftEnvironments(project)?.has(environment) ?? false;
  return (
    <Form
      label={`Variants in ${environment}`}
      error={form.error}
      onSubmit={form.onSubmit(async ({ variants: edited }) => {
        const body = edited.map(variantOf);
        await changeOrDraft(
          project,
          environment,
          { feature, action: 'patchVariant', payload: { variants: body } },
          () => api.put(`${featurePath(project, feature)}/environments/${seg(environment)}/variants`, body),
        );
        onSaved();
      })}
    >
      {drafted && (
        <p class="draft-note">
          {environment} takes changes through change requests: saving adds the variants to your draft, to be
          reviewed before they are set.
        </p>
      )}
      <VariantFields drafts={drafts} onChange={(next) => form.set('variants', next)} errorOf={errorOf} />
      <div class="actions">
        <Button onClick={add}>Add variant</Button>
        <Button type="submit" variant="primary" busy={form.submitting}>
          {drafted ? 'Add to draft' : 'Save variants'}
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
