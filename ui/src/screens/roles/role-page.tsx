import { api } from '../../api/client';
import type { Role } from '../../api/people';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { SelectField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded } from '../../components/status';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';
import { useCan } from '../../session';
import { ROLE_KINDS } from '../../shared/role-kinds';
import { type GrantedPermission, type PermissionCatalogue, PermissionPicker } from './permission-picker';

const TRAIL = [{ href: '/admin/roles', label: 'Roles' }];

type RoleWithPermissions = Role & { permissions: GrantedPermission[] };

interface Draft {
  name: string;
  description: string;
  type: 'root-custom' | 'custom';
  permissions: GrantedPermission[];
}

function RoleForm({
  role,
  catalogue,
  editable,
}: {
  role: RoleWithPermissions | null;
  catalogue: PermissionCatalogue;
  editable: boolean;
}) {
  const form = useForm<Draft>(
    {
      name: role?.name ?? '',
      description: role?.description ?? '',
      type: role?.type === 'root-custom' || role?.type === 'root' ? 'root-custom' : 'custom',
      permissions: role?.permissions ?? [],
    },
    { conflictField: 'name' },
  );
  const save = async (draft: Draft) => {
    if (role) await api.put(`/api/admin/roles/${role.id}`, draft);
    else await api.post('/api/admin/roles', draft);
    navigate('/admin/roles');
  };
  return (
    <Form label="Role" error={form.error} onSubmit={form.onSubmit(save)}>
      <fieldset disabled={!editable} class="plain">
        <TextField label="Name" required {...form.field('name')} />
        <TextAreaField label="Description" {...form.field('description')} />
        {!role && (
          <SelectField
            label="Kind"
            value={form.values.type}
            choices={[
              { value: 'custom', label: 'Project role: granted in a project' },
              { value: 'root-custom', label: 'Root role: what a user may do everywhere' },
            ]}
            onValue={(v) => form.update((d) => ({ ...d, type: v as Draft['type'], permissions: [] }))}
            error={form.errorAt('type')}
          />
        )}
        <PermissionPicker
          kind={form.values.type}
          catalogue={catalogue}
          chosen={form.values.permissions}
          onChange={(permissions) => form.set('permissions', permissions)}
        />
        {form.errorAt('permissions') && <p class="field-error">{form.errorAt('permissions')}</p>}
      </fieldset>
      {editable && (
        <div class="actions">
          <Button type="submit" variant="primary" busy={form.submitting}>
            {role ? 'Save role' : 'Create role'}
          </Button>
          <Link href="/admin/roles" class="button button-secondary">
            Cancel
          </Link>
        </div>
      )}
    </Form>
  );
}

function DeleteRole({ role }: { role: Role }) {
  return (
    <DeleteButton
      confirm={{
        title: `Delete the role “${role.name}”?`,
        body: <p>It is gone for good. A role someone still holds cannot be deleted.</p>,
        confirmLabel: 'Delete role',
      }}
      onDelete={async () => {
        await api.del(`/api/admin/roles/${role.id}`);
        navigate('/admin/roles');
      }}
    />
  );
}

/** A role (or a new one) and its permissions; built-in roles can be read, not changed. */
export function RolePage({ params }: RouteProps) {
  const isNew = params.roleId === undefined;
  const role = useResource<RoleWithPermissions>(
    isNew ? null : `/api/admin/roles/${encodeURIComponent(params.roleId!)}`,
  );
  const catalogue = useResource<{ permissions: PermissionCatalogue }>('/api/admin/permissions');
  const canCreate = useCan('CREATE_ROLE');
  const canUpdate = useCan('UPDATE_ROLE');
  const canDelete = useCan('DELETE_ROLE');
  const title = isNew ? 'New role' : (role.data?.name ?? 'Role');
  return (
    <Loaded resources={[isNew ? null : role, catalogue]} header={<PageHeader title={title} trail={TRAIL} />}>
      {(read, { permissions }) => {
        const current = read ?? null;
        const builtIn = current?.type === 'root' || current?.type === 'project';
        return (
          <>
            <PageHeader
              title={title}
              trail={TRAIL}
              actions={current && !builtIn && canDelete && <DeleteRole role={current} />}
            >
              {current && <p class="muted">{ROLE_KINDS[current.type]}</p>}
            </PageHeader>
            <RoleForm
              role={current}
              catalogue={permissions}
              editable={!builtIn && (current ? canUpdate : canCreate)}
            />
          </>
        );
      }}
    </Loaded>
  );
}
