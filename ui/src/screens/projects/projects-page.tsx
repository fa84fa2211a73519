import type { Project } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Empty, Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { useCan } from '../../session';

function ProjectCard({ project }: { project: Project }) {
  return (
    <li class="card project-card">
      <h2>
        <Link href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</Link>
      </h2>
      <p class="muted">{project.description || 'No description'}</p>
      <dl class="stats">
        <div>
          <dt>Flags</dt>
          <dd>{project.featureCount}</dd>
        </div>
        <div>
          <dt>Members</dt>
          <dd>{project.memberCount}</dd>
        </div>
        <div>
          <dt>Id</dt>
          <dd>
            <code>{project.id}</code>
          </dd>
        </div>
      </dl>
    </li>
  );
}

export function ProjectsPage(_props: RouteProps) {
  const projects = useResource<{ projects: Project[] }>('/api/admin/projects');
  const canCreate = useCan('CREATE_PROJECT');
  return (
    <>
      <PageHeader
        title="Projects"
        actions={
          canCreate && (
            <Link href="/create-project" class="button button-primary">
              New project
            </Link>
          )
        }
      />
      <Loaded resources={[projects]}>
        {({ projects: list }) =>
          list.length === 0 ? (
            <Empty>There are no projects yet.</Empty>
          ) : (
            <ul class="card-grid">
              {list.map((p) => (
                <ProjectCard key={p.id} project={p} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}
