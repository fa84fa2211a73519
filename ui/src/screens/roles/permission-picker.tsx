import { CheckboxField } from '../../components/fields';

export interface PermissionInfo {
  name: string;
  displayName: string;
}

export interface PermissionCatalogue {
  root: PermissionInfo[];
  project: PermissionInfo[];
  environments: { name: string; permissions: PermissionInfo[] }[];
}

export interface GrantedPermission {
  name: string;
  environment?: string;
}

interface Props {
  /** A root role lists instance-wide permissions; a project role project and environment ones. */
  kind: 'root-custom' | 'custom';
  catalogue: PermissionCatalogue;
  chosen: GrantedPermission[];
  onChange(chosen: GrantedPermission[]): void;
  disabled?: boolean;
}

const same = (a: GrantedPermission, b: GrantedPermission) =>
  a.name === b.name && (a.environment ?? '') === (b.environment ?? '');

function Checkboxes({
  permissions,
  environment,
  chosen,
  onChange,
  disabled,
}: Omit<Props, 'kind' | 'catalogue'> & {
  permissions: PermissionInfo[];
  environment?: string;
}) {
  return (
    <>
      {permissions.map((p) => {
        const permission = environment ? { name: p.name, environment } : { name: p.name };
        return (
          <CheckboxField
            key={p.name}
            label={p.displayName}
            disabled={disabled}
            checked={chosen.some((c) => same(c, permission))}
            onValue={(on) =>
              onChange(on ? [...chosen, permission] : chosen.filter((c) => !same(c, permission)))
            }
          />
        );
      })}
    </>
  );
}

/** Checkboxes for the permissions a role holds: instance-wide, or per project and per environment. */
export function PermissionPicker({ kind, catalogue, ...props }: Props) {
  if (kind === 'root-custom') {
    return (
      <fieldset class="permission-group">
        <legend>Permissions</legend>
        <Checkboxes permissions={catalogue.root} {...props} />
      </fieldset>
    );
  }
  return (
    <>
      <fieldset class="permission-group">
        <legend>In the project</legend>
        <Checkboxes permissions={catalogue.project} {...props} />
      </fieldset>
      {catalogue.environments.map((env) => (
        <fieldset class="permission-group" key={env.name}>
          <legend>In {env.name}</legend>
          <Checkboxes permissions={env.permissions} environment={env.name} {...props} />
        </fieldset>
      ))}
    </>
  );
}
