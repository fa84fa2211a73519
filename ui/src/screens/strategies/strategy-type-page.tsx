import { api, seg } from '../../api/client';
import type { StrategyParameter, StrategyType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded, Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';
import { useSession } from '../../session';
import { strategyTypeHref } from '../../shared/links';
import { PARAMETER_TYPES, ParameterDefinitionsEditor } from './parameter-definitions-editor';

const TRAIL = [{ href: '/strategies', label: 'Strategies' }];
const typeLabel = (type: string) => PARAMETER_TYPES.find((t) => t.value === type)?.label ?? type;

interface Draft {
  name: string;
  title: string;
  description: string;
  parameters: StrategyParameter[];
}

function StrategyTypeForm({ type }: { type: StrategyType | null }) {
  const form = useForm<Draft>(
    {
      name: type?.name ?? '',
      title: type?.title ?? '',
      description: type?.description ?? '',
      parameters: type?.parameters ?? [],
    },
    { conflictField: 'name' },
  );
  const save = async ({ name, title, description, parameters }: Draft) => {
    const body = { title: title || null, description, parameters };
    if (type) await api.put(`/api/admin/strategies/${seg(type.name)}`, body);
    else await api.post('/api/admin/strategies', { name, ...body });
    navigate(strategyTypeHref(type?.name ?? name));
  };
  return (
    <Form label="Strategy" error={form.error} onSubmit={form.onSubmit(save)}>
      {!type && (
        <TextField
          label="Name"
          hint="The name the SDK's code registers the strategy under. It cannot change later."
          required
          {...form.field('name')}
        />
      )}
      <TextField
        label="Title (optional)"
        hint="Shown instead of the name in lists."
        {...form.field('title')}
      />
      <TextAreaField label="Description" {...form.field('description')} />
      <ParameterDefinitionsEditor
        parameters={form.values.parameters}
        onChange={(parameters) => form.set('parameters', parameters)}
        errorAt={form.errorAt}
      />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {type ? 'Save strategy' : 'Create strategy'}
        </Button>
        <Link href={type ? strategyTypeHref(type.name) : '/strategies'} class="button button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

function StrategyTypeSummary({ type }: { type: StrategyType }) {
  return (
    <div class="card">
      {type.description && <p>{type.description}</p>}
      <p>
        <span class="label">Kind:</span> {type.editable === false ? 'built in' : 'custom'}
        {type.deprecated && ', deprecated: not offered for new flag strategies'}
      </p>
      <p class="label">Parameters</p>
      {type.parameters.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {type.parameters.map((p) => (
            <li key={p.name}>
              <code>{p.name}</code> ({typeLabel(p.type)}
              {p.required ? ', required' : ''}){p.description && ` — ${p.description}`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function StrategyTypeActions({ type, onChanged }: { type: StrategyType; onChanged(): void }) {
  const action = useAction();
  const { run, busy, problem } = action;
  const path = `/api/admin/strategies/${seg(type.name)}`;
  const toggle = async () => {
    if (await run(() => api.post(`${path}/${type.deprecated ? 'reactivate' : 'deprecate'}`))) onChanged();
  };
  return (
    <>
      <Problem message={problem} />
      <Button onClick={toggle} busy={busy}>
        {type.deprecated ? 'Reactivate' : 'Deprecate'}
      </Button>
      {type.editable !== false && (
        <DeleteButton
          confirm={{
            title: `Delete the strategy “${type.name}”?`,
            body: (
              <p>
                Flags can no longer use it. While a flag (archived ones included) still has a strategy of this
                type, it cannot be deleted: remove those strategies first, or deprecate it instead.
              </p>
            ),
            confirmLabel: 'Delete strategy',
          }}
          onDelete={async () => {
            await api.del(path);
            navigate('/strategies');
          }}
          action={action}
        />
      )}
    </>
  );
}

/** One strategy type (or a new custom one): Admins change custom ones; everyone else reads. */
export function StrategyTypePage({ params }: RouteProps) {
  const name = params.strategyName ?? '';
  const isNew = params.strategyName === undefined;
  const type = useResource<StrategyType>(isNew ? null : `/api/admin/strategies/${seg(name)}`);
  const { isAdmin } = useSession();
  const title = isNew ? 'New custom strategy' : (type.data?.displayName ?? name);
  return (
    <Loaded resources={[isNew ? null : type]} header={<PageHeader title={title} trail={TRAIL} />}>
      {(read) => {
        const current = read ?? null;
        const editable = isAdmin && (current === null || current.editable !== false);
        return (
          <>
            <PageHeader
              title={title}
              trail={TRAIL}
              actions={
                current && isAdmin && <StrategyTypeActions type={current} onChanged={() => type.reload()} />
              }
            />
            {current && !editable && <StrategyTypeSummary type={current} />}
            {current?.deprecated && editable && (
              <p class="muted">Deprecated: not offered for new flag strategies; flags using it keep it.</p>
            )}
            {editable && <StrategyTypeForm key={current?.name ?? ''} type={current} />}
          </>
        );
      }}
    </Loaded>
  );
}
