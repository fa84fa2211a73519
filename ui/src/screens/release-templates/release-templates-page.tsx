import { api, seg } from '../../api/client';
import { type ReleaseTemplate, TEMPLATES_PATH } from '../../api/releases';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { Empty, Loaded, Problem } from '../../components/status';
import { formatDate } from '../../format';
import { useAction } from '../../forms/use-action';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { useCan } from '../../session';

export const templateHref = (id: string) => `/release-templates/${encodeURIComponent(id)}`;

function milestoneNames(template: ReleaseTemplate): string {
  return [...template.milestones]
    .sort((a, b) => a.sortOrder - b.sortOrder)
    .map((m) => m.name)
    .join(' → ');
}

function TemplateRow({ template, reload }: { template: ReleaseTemplate; reload(): Promise<void> }) {
  const canRemove = useCan('RELEASE_PLAN_TEMPLATE_DELETE');
  const action = useAction(reload);
  const path = `${TEMPLATES_PATH}/${seg(template.id)}`;
  return (
    <tr>
      <th scope="row" data-label="Template">
        <Link href={templateHref(template.id)}>{template.name}</Link>
        {template.description && <p class="muted flag-description">{template.description}</p>}
      </th>
      <td data-label="Milestones">{milestoneNames(template) || '—'}</td>
      <td data-label="Project">{template.project ?? 'Any project'}</td>
      <td data-label="Created">{formatDate(template.createdAt)}</td>
      <td data-label="Actions">
        {canRemove && (
          <div class="actions">
            <Problem message={action.problem} />
            <Button
              onClick={() => action.run(() => api.post(`${TEMPLATES_PATH}/archive/${seg(template.id)}`))}
              busy={action.busy}
              aria-label={`Archive ${template.name}`}
            >
              Archive
            </Button>
            <DeleteButton
              confirm={{
                title: `Delete the release template “${template.name}”?`,
                body: (
                  <p>
                    It is gone for good. Plans made from it keep their milestones; archiving it instead only
                    stops offering it.
                  </p>
                ),
                confirmLabel: 'Delete template',
              }}
              onDelete={() => api.del(path)}
              action={action}
              aria-label={`Delete ${template.name}`}
            />
          </div>
        )}
      </td>
    </tr>
  );
}

/** The release templates offered in every project: milestones a flag's plan runs one after another. */
export function ReleaseTemplatesPage(_props: RouteProps) {
  const templates = useResource<ReleaseTemplate[]>(TEMPLATES_PATH);
  const canCreate = useCan('RELEASE_PLAN_TEMPLATE_CREATE');
  return (
    <>
      <PageHeader
        title="Release templates"
        actions={
          canCreate && (
            <Link href="/create-release-template" class="button button-primary">
              New template
            </Link>
          )
        }
      >
        <p class="muted">
          A release template is a sequence of milestones, each a set of strategies. A flag's environment gets
          a release plan made from one, and starts its milestones by hand or after a while.
        </p>
      </PageHeader>
      <Loaded resources={[templates]}>
        {(list) =>
          list.length === 0 ? (
            <Empty>There are no release templates yet.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">Release templates</caption>
              <thead>
                <tr>
                  <th scope="col">Template</th>
                  <th scope="col">Milestones</th>
                  <th scope="col">Project</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <TemplateRow key={t.id} template={t} reload={templates.reload} />
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </>
  );
}
