import { api, seg } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Empty, Loaded } from '../../components/status';
import { formatDateTime } from '../../format';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { navigate, type RouteProps } from '../../router';
import { useCan } from '../../session';

interface Instance {
  instanceId: string;
  environment: string;
  sdkVersion: string | null;
  clientIp: string | null;
  started: string | null;
  lastSeen: string;
}

interface Application {
  appName: string;
  description: string | null;
  url: string | null;
  color: string | null;
  icon: string | null;
  strategies: string[];
  instances: Instance[];
  seenToggles: string[];
}

const TRAIL = [{ href: '/applications', label: 'Applications' }];

type Details = Pick<Application, 'description' | 'url' | 'color' | 'icon'>;

/**
 * The details the user changed. The server changes only the fields sent; one left as it was is not
 * sent, so a field that was never set stays unset rather than becoming empty text.
 */
function changedDetails(edited: Record<keyof Details, string>, stored: Details): Partial<Details> {
  return Object.fromEntries(
    Object.entries(edited).filter(([key, value]) => value !== (stored[key as keyof Details] ?? '')),
  );
}

function ApplicationForm({ application, onSaved }: { application: Application; onSaved(): void }) {
  const form = useForm({
    description: application.description ?? '',
    url: application.url ?? '',
    color: application.color ?? '',
    icon: application.icon ?? '',
  });
  return (
    <Form
      label="Application details"
      error={form.error}
      onSubmit={form.onSubmit(async (values) => {
        const changed = changedDetails(values, application);
        if (Object.keys(changed).length > 0)
          await api.post(`/api/admin/metrics/applications/${seg(application.appName)}`, changed);
        onSaved();
      })}
    >
      <TextAreaField label="Description" {...form.field('description')} />
      <TextField label="Link" type="url" hint="Where the application can be found." {...form.field('url')} />
      <div class="row">
        <TextField label="Colour" {...form.field('color')} />
        <TextField label="Icon" {...form.field('icon')} />
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Save details
        </Button>
      </div>
    </Form>
  );
}

function InstanceTable({ instances }: { instances: Instance[] }) {
  if (instances.length === 0) return <Empty>No instance reported in the last 48 hours.</Empty>;
  return (
    <table class="table">
      <caption class="visually-hidden">Instances</caption>
      <thead>
        <tr>
          <th scope="col">Instance</th>
          <th scope="col">Environment</th>
          <th scope="col">SDK</th>
          <th scope="col">Address</th>
          <th scope="col">Started</th>
          <th scope="col">Last seen</th>
        </tr>
      </thead>
      <tbody>
        {instances.map((i) => (
          <tr key={`${i.instanceId}:${i.environment}`}>
            <th scope="row" data-label="Instance">
              <code>{i.instanceId}</code>
            </th>
            <td data-label="Environment">{i.environment}</td>
            <td data-label="SDK">{i.sdkVersion ?? '—'}</td>
            <td data-label="Address">{i.clientIp ?? '—'}</td>
            <td data-label="Started">{formatDateTime(i.started)}</td>
            <td data-label="Last seen">{formatDateTime(i.lastSeen)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DeleteApplication({ name }: { name: string }) {
  return (
    <DeleteButton
      confirm={{
        title: `Forget the application “${name}”?`,
        body: (
          <p>Its details and instances are deleted. It comes back when one of its SDKs registers again.</p>
        ),
        confirmLabel: 'Forget application',
      }}
      onDelete={async () => {
        await api.del(`/api/admin/metrics/applications/${seg(name)}`);
        navigate('/applications');
      }}
    >
      Forget
    </DeleteButton>
  );
}

/** An application: its details, its instances and the flags it asked for. */
export function ApplicationPage({ params }: RouteProps) {
  const name = params.appName!;
  const application = useResource<Application>(`/api/admin/metrics/applications/${seg(name)}`);
  const canChange = useCan('UPDATE_APPLICATION');
  return (
    <Loaded resources={[application]} header={<PageHeader title={name} trail={TRAIL} />}>
      {(app) => (
        <>
          <PageHeader title={name} trail={TRAIL} actions={canChange && <DeleteApplication name={name} />}>
            {app.url && (
              <p>
                <a href={app.url}>{app.url}</a>
              </p>
            )}
          </PageHeader>
          {canChange ? (
            <ApplicationForm application={app} onSaved={application.reload} />
          ) : (
            app.description && <p>{app.description}</p>
          )}
          <h2>Instances</h2>
          <InstanceTable instances={app.instances} />
          <h2>Flags it evaluated</h2>
          {app.seenToggles.length === 0 ? (
            <Empty>None reported yet.</Empty>
          ) : (
            <p>{app.seenToggles.join(', ')}</p>
          )}
          <p>
            <span class="label">Strategies it knows:</span> {app.strategies.join(', ') || '—'}
          </p>
        </>
      )}
    </Loaded>
  );
}
