import { useResource } from '../../api/use-resource';
import { requestsPath } from '../../change-requests/drafts';
import {
  type ChangeRequest,
  type ChangeRequestCounts,
  isClosed,
  requestName,
  type Schedule,
  userName,
} from '../../change-requests/types';
import { SelectField } from '../../components/fields';
import { Empty, Loaded } from '../../components/status';
import { formatDateTime } from '../../format';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';
import { changeRequestHref } from '../../shared/links';
import { useProjectTrail } from '../projects/project-trail';
import { StateBadge } from './state-badge';

const SHOWN = [
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed: applied, cancelled or rejected' },
  { value: 'all', label: 'All' },
];

function Counts({ counts }: { counts: ChangeRequestCounts }) {
  const shown = [
    ['In review', counts.reviewRequired],
    ['Approved', counts.approved],
    ['Scheduled', counts.scheduled],
    ['Applied', counts.applied],
    ['Rejected', counts.rejected],
    ['In all', counts.total],
  ] as const;
  return (
    <dl class="stats" aria-label="Change requests by state">
      {shown.map(([label, n]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{n}</dd>
        </div>
      ))}
    </dl>
  );
}

/** When a scheduled request is applied, or that it will not be until someone acts on it. */
function ScheduledFor({ schedule }: { schedule: Schedule }) {
  const stopped = schedule.status !== 'pending';
  return (
    <span class={`request-when${stopped ? ' request-when-stopped' : ''}`}>
      {stopped ? `${schedule.status}, was for ` : 'for '}
      <time dateTime={schedule.scheduledAt}>{formatDateTime(schedule.scheduledAt)}</time>
    </span>
  );
}

function RequestTable({ project, requests }: { project: string; requests: ChangeRequest[] }) {
  return (
    <table class="table">
      <caption class="visually-hidden">Change requests</caption>
      <thead>
        <tr>
          <th scope="col">Change request</th>
          <th scope="col">Environment</th>
          <th scope="col">State</th>
          <th scope="col">Requested by</th>
          <th scope="col">Flags</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {requests.map((r) => (
          <tr key={r.id}>
            <th scope="row" data-label="Change request">
              <Link href={changeRequestHref(project, r.id)}>{requestName(r)}</Link>
              {r.title && <span class="muted"> #{r.id}</span>}
            </th>
            <td data-label="Environment">{r.environment}</td>
            <td data-label="State">
              <StateBadge state={r.state} />
              {r.schedule && <ScheduledFor schedule={r.schedule} />}
            </td>
            <td data-label="Requested by">{userName(r.createdBy)}</td>
            <td data-label="Flags">
              {[...r.features.map((f) => f.name), ...r.segments.map((s) => `segment ${s.name}`)].join(', ') ||
                '—'}
            </td>
            <td data-label="Created">{formatDateTime(r.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A project's change requests, newest first (of drafts, the user's own), with how many are in each state. */
export function ChangeRequestsPage({ params, query }: RouteProps) {
  const project = params.projectId!;
  const requests = useResource<ChangeRequest[]>(requestsPath(project));
  const counts = useResource<ChangeRequestCounts>(`${requestsPath(project)}/count`);
  const trail = useProjectTrail(project);
  const shown = query.get('state') ?? 'open';
  const header = (
    <PageHeader title="Change requests" trail={trail}>
      <p class="muted">
        Changes of flags in the environments that need them, reviewed by others before they are made.
      </p>
      {counts.data && <Counts counts={counts.data} />}
    </PageHeader>
  );
  const wanted = (r: ChangeRequest) => shown === 'all' || (shown === 'closed') === isClosed(r.state);
  return (
    <Loaded resources={[requests]} header={header}>
      {(list) => (
        <>
          {header}
          <div class="request-filter">
            <SelectField
              label="Show"
              value={shown}
              choices={SHOWN}
              onValue={(state) => navigate(`${changeRequestHref(project)}?state=${state}`, { replace: true })}
            />
          </div>
          {list.filter(wanted).length === 0 ? (
            <Empty>No change requests here.</Empty>
          ) : (
            <RequestTable project={project} requests={list.filter(wanted)} />
          )}
        </>
      )}
    </Loaded>
  );
}
