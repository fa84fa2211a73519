import { useState } from 'preact/hooks';
import { api, featurePath, seg } from '../../api/client';
import type { Dependency, Feature } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { CheckboxField, SelectField } from '../../components/fields';
import { Form } from '../../components/form';
import { Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { Link } from '../../router';
import { useCan } from '../../session';
import { flagHref } from '../../shared/links';

interface Props {
  project: string;
  feature: Feature;
  reload(): Promise<void>;
}

/** What the parent must be for the child to be on, in words. */
function conditionOf(d: Dependency): string {
  if (!d.enabled) return 'being off';
  if (d.variants.length === 0) return 'being on';
  return `being on with the variant ${d.variants.join(' or ')}`;
}

interface Draft {
  feature: string;
  enabled: 'true' | 'false';
  variants: string[];
}

function DependencyForm({
  project,
  feature,
  current,
  onSaved,
  onCancel,
}: Props & { current: Dependency | undefined; onSaved(): void; onCancel(): void }) {
  const base = featurePath(project, feature.name);
  const parents = useResource<string[]>(`${base}/parents`);
  const form = useForm<Draft>({
    feature: current?.feature ?? '',
    enabled: current?.enabled === false ? 'false' : 'true',
    variants: current?.variants ?? [],
  });
  const { values } = form;
  const variants = useResource<string[]>(
    values.feature && values.enabled === 'true'
      ? `/api/admin/projects/${seg(project)}/features/${seg(values.feature)}/parent-variants`
      : null,
  );
  const options = parents.data ?? [];
  const save = async (draft: Draft) => {
    const enabled = draft.enabled === 'true';
    await api.post(`${base}/dependencies`, {
      feature: draft.feature,
      enabled,
      variants: enabled ? draft.variants : [],
    });
    onSaved();
  };
  return (
    <Form
      class="form card dependency-form"
      label="Parent flag"
      error={form.error}
      onSubmit={form.onSubmit(save)}
    >
      <Problem message={parents.error?.message} />
      <div class="row">
        <SelectField
          label="Parent flag"
          hint={
            parents.data && options.length === 0
              ? 'No flag of this project can be its parent: a parent has no parent itself.'
              : `A flag of ${project}; ${feature.name} is on only while the parent's condition holds.`
          }
          value={values.feature}
          choices={[
            { value: '', label: parents.data ? 'Choose a flag' : 'Loading the flags…' },
            ...options.map((name) => ({ value: name, label: name })),
          ]}
          onValue={(v) => form.update((d) => ({ ...d, feature: v, variants: [] }))}
          error={form.errorAt('feature')}
        />
        <SelectField
          label="The parent must be"
          {...form.field('enabled')}
          choices={[
            { value: 'true', label: 'On' },
            { value: 'false', label: 'Off' },
          ]}
        />
      </div>
      {values.enabled === 'true' && (variants.data?.length ?? 0) > 0 && (
        <fieldset class="choices">
          <legend>With one of these variants (none chosen: any)</legend>
          {variants.data!.map((name) => (
            <CheckboxField
              key={name}
              label={name}
              checked={values.variants.includes(name)}
              onValue={(on) =>
                form.set(
                  'variants',
                  on ? [...values.variants, name] : values.variants.filter((v) => v !== name),
                )
              }
            />
          ))}
          {form.errorAt('variants') && <p class="field-error">{form.errorAt('variants')}</p>}
        </fieldset>
      )}
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Save dependency
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}

/**
 * The flag's parent (and what it must be) and the flags that depend on it; those who may change
 * dependencies add, change and remove the parent here.
 */
export function FlagDependency(props: Props) {
  const { project, feature, reload } = props;
  const canEdit = useCan('UPDATE_FEATURE_DEPENDENCY', { project });
  const action = useAction();
  const [editing, setEditing] = useState(false);
  const parent = feature.dependencies[0];
  const children = feature.children;
  // A flag with children cannot have a parent: dependencies are one level deep.
  const mayHaveParent = canEdit && children.length === 0;
  if (!parent && children.length === 0 && !mayHaveParent) return null;

  const remove = async (d: Dependency) => {
    await api.del(`${featurePath(project, feature.name)}/dependencies/${seg(d.feature)}`);
    await reload();
  };

  return (
    <div class="flag-dependency">
      <Problem message={action.problem} />
      {parent && (
        <p class="dependency-line">
          <span class="label">Depends on</span>
          <Link href={flagHref(project, parent.feature)}>{parent.feature}</Link>
          <span>{conditionOf(parent)}</span>
          {canEdit && !editing && (
            <>
              <Button variant="quiet" class="add-tag" onClick={() => setEditing(true)}>
                Change
              </Button>
              <DeleteButton
                confirm={{
                  title: `Remove the dependency of “${feature.name}” on “${parent.feature}”?`,
                  body: (
                    <p>
                      {feature.name} no longer waits for {parent.feature} {conditionOf(parent)}: it is on
                      wherever its own switch and strategies say.
                    </p>
                  ),
                  confirmLabel: 'Remove dependency',
                }}
                onDelete={() => remove(parent)}
                action={action}
                class="add-tag"
                aria-label={`Remove the dependency on ${parent.feature}`}
              >
                Remove
              </DeleteButton>
            </>
          )}
        </p>
      )}
      {children.length > 0 && (
        <p class="dependency-line">
          <span class="label">Required by</span>
          {children.map((child, i) => (
            <span key={child}>
              <Link href={flagHref(project, child)}>{child}</Link>
              {i < children.length - 1 && ','}
            </span>
          ))}
        </p>
      )}
      {editing ? (
        <DependencyForm
          {...props}
          current={parent}
          onSaved={async () => {
            await reload();
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        !parent &&
        mayHaveParent && (
          <Button variant="quiet" class="add-tag" onClick={() => setEditing(true)}>
            + Add parent flag
          </Button>
        )
      )}
    </div>
  );
}
