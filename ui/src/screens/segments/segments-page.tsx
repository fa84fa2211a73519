import type { Segment } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Empty, Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { useCan } from '../../session';

const segmentHref = (id: number) => `/segments/${id}`;

/** Every segment: named sets of constraints that strategies share. */
export function SegmentsPage(_props: RouteProps) {
  const segments = useResource<{ segments: Segment[] }>('/api/admin/segments');
  const canCreate = useCan('CREATE_SEGMENT');
  return (
    <>
      <PageHeader
        title="Segments"
        actions={
          canCreate && (
            <Link href="/create-segment" class="button button-primary">
              New segment
            </Link>
          )
        }
      >
        <p class="muted">A segment is a named set of constraints that strategies of any flag can use.</p>
      </PageHeader>
      <Loaded resources={[segments]}>
        {({ segments: list }) =>
          list.length === 0 ? (
            <Empty>There are no segments yet.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">Segments</caption>
              <thead>
                <tr>
                  <th scope="col">Segment</th>
                  <th scope="col">Constraints</th>
                  <th scope="col">Project</th>
                </tr>
              </thead>
              <tbody>
                {list.map((s) => (
                  <tr key={s.id}>
                    <th scope="row" data-label="Segment">
                      <Link href={segmentHref(s.id)}>{s.name}</Link>
                      {s.description && <p class="muted flag-description">{s.description}</p>}
                    </th>
                    <td data-label="Constraints">{s.constraints.length}</td>
                    <td data-label="Project">{s.project ?? 'Any project'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </>
  );
}
