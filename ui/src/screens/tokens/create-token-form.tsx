import { api } from '../../api/client';
import type { Environment, Project } from '../../api/types';
import { Button } from '../../components/button';
import { CheckboxField, type Choice, SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { useForm } from '../../forms/use-form';

interface Props {
  types: Choice[];
  projects: Project[];
  environments: Environment[];
  onCreated(secret: string): void;
  onCancel(): void;
}

interface Draft {
  tokenName: string;
  type: string;
  allProjects: boolean;
  projects: string[];
  environment: string;
}

/** A new API token for SDKs (client, frontend) or scripts (admin); its secret is answered once. */
export function CreateTokenForm({ types, projects, environments, onCreated, onCancel }: Props) {
  const form = useForm<Draft>({
    tokenName: '',
    type: types[0]?.value ?? 'client',
    allProjects: true,
    projects: [],
    environment: environments[0]?.name ?? 'development',
  });
  const { values } = form;
  const forSdks = values.type !== 'admin';
  return (
    <Form
      label="New API token"
      class="form card"
      error={form.error}
      onSubmit={form.onSubmit(async (draft) => {
        const token = await api.post<{ secret: string }>('/api/admin/api-tokens', {
          tokenName: draft.tokenName,
          type: draft.type,
          ...(draft.type === 'admin'
            ? {}
            : { environment: draft.environment, projects: draft.allProjects ? ['*'] : draft.projects }),
        });
        onCreated(token.secret);
      })}
    >
      <h2>New API token</h2>
      <div class="row">
        <TextField label="Name" required {...form.field('tokenName')} />
        <SelectField label="Type" {...form.field('type')} choices={types} />
      </div>
      {forSdks && (
        <>
          <SelectField
            label="Environment"
            {...form.field('environment')}
            choices={environments.map((e) => ({ value: e.name, label: e.name }))}
          />
          <fieldset>
            <legend>Projects</legend>
            <CheckboxField label="Every project, also those made later" {...form.checkbox('allProjects')} />
            {!values.allProjects &&
              projects.map((p) => (
                <CheckboxField
                  key={p.id}
                  label={p.name}
                  checked={values.projects.includes(p.id)}
                  onValue={(on) =>
                    form.set(
                      'projects',
                      on ? [...values.projects, p.id] : values.projects.filter((id) => id !== p.id),
                    )
                  }
                />
              ))}
            {form.errorAt('projects') && <p class="field-error">{form.errorAt('projects')}</p>}
          </fieldset>
        </>
      )}
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Create token
        </Button>
        <Button variant="quiet" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
