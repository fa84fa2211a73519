import { featurePath } from '../../api/client';
import type { Feature, FeatureType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { DraftBanner } from '../../change-requests/draft-banner';
import { ScheduledNote } from '../../change-requests/scheduled-note';
import { lazy } from '../../components/lazy';
import { ErrorMessage, Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { flagHref } from '../../shared/links';
import { useProjectTrail } from '../projects/project-trail';
import { EnvironmentsTab } from './environments-tab';
import { FlagActions } from './flag-actions';
import { FlagDependency } from './flag-dependency';
import type { FlagTabProps } from './flag-tab';
import { FlagTags } from './flag-tags';
import { HistoryTab } from './history-tab';
import { JsonTab } from './json-tab';
import { VariantsTab } from './variants-tab';

// The chart library is the largest part of the UI: it loads when the usage tab is first opened.
const UsageTab = lazy<FlagTabProps>(() => import('./usage-tab').then((m) => m.UsageTab));
// Opened now and then: loaded when first opened too.
const SettingsTab = lazy<FlagTabProps>(() => import('./settings-tab').then((m) => m.SettingsTab));
const ImpactTab = lazy<FlagTabProps>(() =>
  import('../impact-metrics/flag-impact-tab').then((m) => m.FlagImpactTab),
);

const TABS = [
  { id: '', label: 'Environments', screen: EnvironmentsTab },
  { id: 'variants', label: 'Variants', screen: VariantsTab },
  { id: 'usage', label: 'Usage', screen: UsageTab },
  { id: 'impact-metrics', label: 'Impact metrics', screen: ImpactTab },
  { id: 'settings', label: 'Settings', screen: SettingsTab },
  { id: 'history', label: 'History', screen: HistoryTab },
  { id: 'json', label: 'JSON', screen: JsonTab },
];

function ArchivedOrMissing({ project, error }: { project: string; error: Error }) {
  return (
    <>
      <ErrorMessage error={error} />
      <p>
        If it was archived, it is in the{' '}
        <Link href={`/projects/${encodeURIComponent(project)}?archived=1`}>project's archive</Link>, where it
        can be revived.
      </p>
    </>
  );
}

/** A flag: its environments with their strategies, variants, usage, history and JSON, one tab each. */
export function FlagPage({ params }: RouteProps) {
  const project = params.projectId!;
  const name = params.featureName!;
  const tab = TABS.find((t) => t.id === (params.tab ?? '')) ?? TABS[0]!;
  const feature = useResource<Feature>(featurePath(project, name));
  const types = useResource<{ types: FeatureType[] }>('/api/admin/feature-types');
  const trail = useProjectTrail(project);
  const Tab = tab.screen;
  return (
    <Loaded
      resources={[feature]}
      header={<PageHeader title={name} trail={trail} />}
      label="Loading the flag…"
      renderError={(error) => <ArchivedOrMissing project={project} error={error} />}
    >
      {(flag) => (
        <>
          <PageHeader
            title={flag.name}
            trail={trail}
            actions={<FlagActions project={project} feature={flag} reload={feature.reload} />}
          >
            <p class="flag-meta">
              <span class="badge">
                {types.data?.types.find((t) => t.id === flag.type)?.name ?? flag.type}
              </span>
              {flag.stale && <span class="badge badge-warning">stale</span>}
              {flag.impressionData && <span class="badge">impression data</span>}
            </p>
            {flag.description && <p class="muted">{flag.description}</p>}
            <FlagTags project={project} feature={flag.name} />
            <FlagDependency project={project} feature={flag} reload={feature.reload} />
          </PageHeader>
          <DraftBanner project={project} />
          <ScheduledNote project={project} flag={flag.name} />
          <nav class="tabs" aria-label="Parts of the flag">
            {TABS.map((t) => (
              <Link
                key={t.id}
                href={flagHref(project, name, t.id)}
                aria-current={t === tab ? 'page' : undefined}
              >
                {t.label}
              </Link>
            ))}
          </nav>
          <section class="tab-panel" aria-label={tab.label}>
            <Tab project={project} feature={flag} reload={feature.reload} />
          </section>
        </>
      )}
    </Loaded>
  );
}
