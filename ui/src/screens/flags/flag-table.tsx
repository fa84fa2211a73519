import type { Environment, FeatureSummary } from '../../api/types';
import { EnvironmentSwitch } from '../../components/environment-switch';
import { formatDate } from '../../format';
import { Link } from '../../router';
import { flagHref } from '../../shared/links';

interface Props {
  project: string;
  flags: FeatureSummary[];
  environments: Environment[];
  onSwitched(flag: string, environment: string, enabled: boolean): void;
  onError(message: string): void;
}

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

function FlagRow({
  project,
  flag,
  environments,
  onSwitched,
  onError,
}: Omit<Props, 'flags'> & { flag: FeatureSummary }) {
  return (
    <tr>
      <th scope="row" data-label="Flag">
        <Link href={flagHref(project, flag.name)} class="flag-name">
          {flag.name}
        </Link>
        {flag.stale && <span class="badge badge-warning">stale</span>}
        {flag.description && <p class="muted flag-description">{flag.description}</p>}
        <TagList tags={flag.tags ?? []} />
      </th>
      <td data-label="Type">{flag.type}</td>
      <td data-label="Created">{formatDate(flag.createdAt)}</td>
      {environments.map((environment) => {
        const env = flag.environments.find((e) => e.name === environment.name);
        return (
          <td key={environment.name} data-label={environment.name} class="switch-cell">
            {env && (
              <EnvironmentSwitch
                project={project}
                feature={flag.name}
                environment={env}
                onSwitched={(enabled) => onSwitched(flag.name, env.name, enabled)}
                onError={onError}
              />
            )}
          </td>
        );
      })}
    </tr>
  );
}

/** One page of a project's flags, with a switch per environment in each row. */
export function FlagTable(props: Props) {
  return (
    <table class="table flag-table">
      <caption class="visually-hidden">Flags, with their state in each environment</caption>
      <thead>
        <tr>
          <th scope="col">Flag</th>
          <th scope="col">Type</th>
          <th scope="col">Created</th>
          {props.environments.map((e) => (
            <th scope="col" key={e.name} class="switch-cell">
              {e.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.flags.map((flag) => (
          <FlagRow key={flag.name} flag={flag} {...props} />
        ))}
      </tbody>
    </table>
  );
}
