import { api, featurePath, seg } from '../../api/client';
import type { Feature } from '../../api/types';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';

interface Props {
  project: string;
  feature: Feature;
  reload(): Promise<void>;
  canUpdate: boolean;
}

/** Links from the flag to what documents it (a ticket, a dashboard): at most 10. */
export function FlagLinks({ project, feature, reload, canUpdate }: Props) {
  const links = feature.links ?? [];
  const base = `${featurePath(project, feature.name)}/link`;
  const form = useForm({ url: '', title: '' });
  const action = useAction();
  return (
    <section class="flag-links" aria-labelledby="links-title">
      <h2 id="links-title">Links</h2>
      <Problem message={action.problem} />
      {links.length === 0 ? (
        <p class="muted">No links yet.</p>
      ) : (
        <ul class="link-list">
          {links.map((link) => (
            <li key={link.id}>
              <a href={link.url} target="_blank" rel="noopener noreferrer">
                {link.title || link.url}
              </a>
              {link.title && <span class="muted"> {link.url}</span>}
              {canUpdate && (
                <DeleteButton
                  confirm={{
                    title: `Remove the link “${link.title || link.url}”?`,
                    body: <p>The flag no longer points to it.</p>,
                    confirmLabel: 'Remove link',
                  }}
                  onDelete={async () => {
                    await api.del(`${base}/${seg(link.id)}`);
                    await reload();
                  }}
                  action={action}
                  aria-label={`Remove the link ${link.title || link.url}`}
                >
                  Remove
                </DeleteButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {canUpdate && links.length < 10 && (
        <Form
          label="Add a link"
          class="inline-form"
          error={form.error}
          onSubmit={form.onSubmit(async ({ url, title }) => {
            await api.post(base, { url, title: title || null });
            form.update(() => ({ url: '', title: '' }));
            await reload();
          })}
        >
          <TextField label="Address" type="url" placeholder="https://…" required {...form.field('url')} />
          <TextField label="Title" placeholder="Optional" {...form.field('title')} />
          <div class="actions">
            <Button type="submit" busy={form.submitting}>
              Add link
            </Button>
          </div>
        </Form>
      )}
    </section>
  );
}
