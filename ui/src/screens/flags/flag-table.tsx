import type { FoundEnvironment, FoundFlag } from '../../api/flag-search';
import type { Environment, FeatureType } from '../../api/types';
import { EnvironmentSwitch } from '../../components/environment-switch';
import { formatDate } from '../../format';
import { Link } from '../../router';
import { flagHref } from '../../shared/links';
import type { FlagQuery } from './flag-query';
import { describeReach } from './reach';
import { SortHeader } from './sort-header';

interface Props {
  flags: FoundFlag[];
  environments: Environment[];
  types: FeatureType[];
  /** Shows each flag's project (the overview of every project). */
  showProject: boolean;
  query: FlagQuery;
  onQuery(query: FlagQuery): void;
  onSwitched(flag: FoundFlag, environment: string, enabled: boolean): void;
  onError(message: string): void;
  /** The keys (`project/name`) of the selected flags, for the bulk actions. */
  selected: ReadonlySet<string>;
  onSelect(keys: string[], selected: boolean): void;
}

export const keyOf = (flag: FoundFlag) => `${flag.project}/${flag.name}`;

const STAGE_NAMES: Record<string, string> = {
  initial: 'Initial',
  'pre-live': 'Pre-live',
  live: 'Live',
  completed: 'Completed',
  archived: 'Archived',
};

function TagList({ tags }: { tags: { type: string; value: string }[] }) {
  if (tags.length === 0) return null;
  return (
    <ul class="tags" aria-label="Tags">
      {tags.map((t) => (
        <li key={`${t.type}:${t.value}`} class="tag">
          {t.type === 'simple' ? t.value : `${t.type}: ${t.value}`}
        </li>
      ))}
    </ul>
  );
}

function EnvironmentCell(props: Props & { flag: FoundFlag; env: FoundEnvironment }) {
  const { flag, env } = props;
  const reach = describeReach(env);
  return (
    <div class="env-state">
      <EnvironmentSwitch
        project={flag.project}
        feature={flag.name}
        environment={env}
        onSwitched={(enabled) => props.onSwitched(flag, env.name, enabled)}
        onError={props.onError}
      />
      <span class={`reach${reach.nobody ? ' reach-nobody' : ''}`}>{reach.text}</span>
    </div>
  );
}

function FlagRow(props: Props & { flag: FoundFlag }) {
  const { flag, types } = props;
  return (
    <tr>
      <td class="select-cell">
        <input
          type="checkbox"
          aria-label={`Select ${flag.name}`}
          checked={props.selected.has(keyOf(flag))}
          onChange={(e) => props.onSelect([keyOf(flag)], e.currentTarget.checked)}
        />
      </td>
      <th scope="row" data-label="Flag">
        <Link href={flagHref(flag.project, flag.name)} class="flag-name">
          {flag.name}
        </Link>
        {flag.stale && <span class="badge badge-warning">stale</span>}
        {flag.description && <p class="muted flag-description">{flag.description}</p>}
        <TagList tags={flag.tags ?? []} />
      </th>
      {props.showProject && <td data-label="Project">{flag.project}</td>}
      <td data-label="Type">{types.find((t) => t.id === flag.type)?.name ?? flag.type}</td>
      <td data-label="Lifecycle">{STAGE_NAMES[flag.lifecycle?.stage ?? ''] ?? '—'}</td>
      <td data-label="Created">{formatDate(flag.createdAt)}</td>
      <td data-label="Last seen">{flag.lastSeenAt ? formatDate(flag.lastSeenAt) : 'Never'}</td>
      {props.environments.map((environment) => {
        const env = flag.environments.find((e) => e.name === environment.name);
        return (
          <td key={environment.name} data-label={environment.name} class="switch-cell">
            {env ? <EnvironmentCell {...props} flag={flag} env={env} /> : <span class="muted">—</span>}
          </td>
        );
      })}
    </tr>
  );
}

/** One page of flags: sortable columns, and per environment a switch and who it lets in. */
export function FlagTable(props: Props) {
  const sortable = { query: props.query, onQuery: props.onQuery };
  const keys = props.flags.map(keyOf);
  const all = keys.length > 0 && keys.every((k) => props.selected.has(k));
  return (
    <table class="table flag-table">
      <caption class="visually-hidden">Flags, with their state in each environment</caption>
      <thead>
        <tr>
          <td class="select-cell">
            <input
              type="checkbox"
              aria-label="Select every flag of this page"
              checked={all}
              onChange={(e) => props.onSelect(keys, e.currentTarget.checked)}
            />
          </td>
          <SortHeader label="Flag" sortKey="name" {...sortable} />
          {props.showProject && <SortHeader label="Project" sortKey="project" {...sortable} />}
          <SortHeader label="Type" sortKey="type" {...sortable} />
          <SortHeader label="Lifecycle" sortKey="lifecycle" {...sortable} />
          <SortHeader label="Created" sortKey="createdAt" {...sortable} />
          <SortHeader label="Last seen" sortKey="lastSeenAt" {...sortable} />
          {props.environments.map((e) => (
            <th scope="col" key={e.name} class="switch-cell">
              {e.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.flags.map((flag) => (
          <FlagRow key={keyOf(flag)} flag={flag} {...props} />
        ))}
      </tbody>
    </table>
  );
}
