import { api, seg } from '../../api/client';
import type { ContextField, LegalValue } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { CheckboxField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded } from '../../components/status';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';
import { useCan } from '../../session';
import { LegalValuesEditor } from './legal-values-editor';

const TRAIL = [{ href: '/context', label: 'Context fields' }];

interface Draft {
  name: string;
  description: string;
  stickiness: boolean;
  legalValues: LegalValue[];
}

function withoutBlankDescriptions(values: LegalValue[]): LegalValue[] {
  return values.map(({ value, description }) => (description ? { value, description } : { value }));
}

function ContextFieldForm({ field }: { field: ContextField | null }) {
  const form = useForm<Draft>(
    {
      name: field?.name ?? '',
      description: field?.description ?? '',
      stickiness: field?.stickiness ?? false,
      legalValues: field?.legalValues ?? [],
    },
    { conflictField: 'name' },
  );
  const save = async ({ name, description, stickiness, legalValues }: Draft) => {
    const body = { description, stickiness, legalValues: withoutBlankDescriptions(legalValues) };
    if (field) await api.put(`/api/admin/context/${seg(field.name)}`, body);
    else await api.post('/api/admin/context', { name, ...body });
    navigate('/context');
  };
  return (
    <Form label="Context field" error={form.error} onSubmit={form.onSubmit(save)}>
      {!field && (
        <TextField
          label="Name"
          hint="As the SDK's context calls it (a property name). It cannot change later."
          required
          {...form.field('name')}
        />
      )}
      <TextAreaField label="Description" {...form.field('description')} />
      <CheckboxField
        label="Usable as stickiness"
        hint="Gradual rollouts may keep the same users in or out by this field."
        {...form.checkbox('stickiness')}
      />
      <LegalValuesEditor
        values={form.values.legalValues}
        onChange={(legalValues) => form.set('legalValues', legalValues)}
        errorAt={form.errorAt}
      />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {field ? 'Save context field' : 'Create context field'}
        </Button>
        <Link href="/context" class="button button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

function ContextFieldSummary({ field }: { field: ContextField }) {
  return (
    <div class="card">
      {field.description && <p>{field.description}</p>}
      <p>
        <span class="label">Usable as stickiness:</span> {field.stickiness ? 'yes' : 'no'}
      </p>
      <p class="label">Legal values</p>
      {field.legalValues.length === 0 ? (
        <p>Any value.</p>
      ) : (
        <ul>
          {field.legalValues.map((v) => (
            <li key={v.value}>
              <code>{v.value}</code>
              {v.description && ` — ${v.description}`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function DeleteContextField({ field }: { field: ContextField }) {
  return (
    <DeleteButton
      confirm={{
        title: `Delete the context field “${field.name}”?`,
        body: (
          <p>
            Constraints can no longer be written on it. A field a constraint still uses cannot be deleted.
          </p>
        ),
        confirmLabel: 'Delete context field',
      }}
      onDelete={async () => {
        await api.del(`/api/admin/context/${seg(field.name)}`);
        navigate('/context');
      }}
    />
  );
}

/** One context field (or a new one): its description, stickiness and legal values. */
export function ContextFieldPage({ params }: RouteProps) {
  const name = params.fieldName ?? '';
  const isNew = params.fieldName === undefined;
  const field = useResource<ContextField>(isNew ? null : `/api/admin/context/${seg(name)}`);
  const canEdit = useCan(isNew ? 'CREATE_CONTEXT_FIELD' : 'UPDATE_CONTEXT_FIELD');
  const canDelete = useCan('DELETE_CONTEXT_FIELD');
  const title = isNew ? 'New context field' : name;
  return (
    <Loaded resources={[isNew ? null : field]} header={<PageHeader title={title} trail={TRAIL} />}>
      {(read) => {
        const current = read ?? null;
        return (
          <>
            <PageHeader
              title={title}
              trail={TRAIL}
              actions={current && canDelete && <DeleteContextField field={current} />}
            />
            {canEdit ? (
              <ContextFieldForm field={current} />
            ) : (
              current && <ContextFieldSummary field={current} />
            )}
          </>
        );
      }}
    </Loaded>
  );
}
