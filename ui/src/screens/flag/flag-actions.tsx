import { api, featurePath, seg } from '../../api/client';
import type { Feature } from '../../api/types';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { navigate } from '../../router';
import { useCan } from '../../session';

interface Props {
  project: string;
  feature: Feature;
  reload(): Promise<void>;
}

function enabledIn(feature: Feature): string[] {
  return feature.environments.filter((e) => e.enabled).map((e) => e.name);
}

/** Mark the flag stale (or not) and archive it; shown to those who may. */
export function FlagActions({ project, feature, reload }: Props) {
  const canUpdate = useCan('UPDATE_FEATURE', { project });
  const canArchive = useCan('DELETE_FEATURE', { project });
  const action = useAction();
  const { run, busy, problem } = action;

  const toggleStale = () =>
    run(async () => {
      await api.patch(featurePath(project, feature.name), [
        { op: 'replace', path: '/stale', value: !feature.stale },
      ]);
      await reload();
    });

  const on = enabledIn(feature);
  const archiveQuestion = {
    title: `Archive “${feature.name}”?`,
    body: (
      <>
        <p>
          SDKs stop receiving it: applications get false for it
          {on.length > 0 && <> — it is on in {on.join(', ')} now</>}.
        </p>
        <p>
          It keeps its strategies and variants, and can be revived from the project's archive, turned off.
        </p>
      </>
    ),
    confirmLabel: 'Archive flag',
  };
  const archive = async () => {
    await api.post(`/api/admin/projects/${seg(project)}/archive`, { features: [feature.name] });
    navigate(`/projects/${encodeURIComponent(project)}?archived=1`);
  };

  if (!canUpdate && !canArchive) return null;
  return (
    <>
      <Problem message={problem} />
      {canUpdate && (
        <Button onClick={toggleStale} busy={busy}>
          {feature.stale ? 'Mark as not stale' : 'Mark as stale'}
        </Button>
      )}
      {canArchive && (
        <DeleteButton confirm={archiveQuestion} onDelete={archive} action={action}>
          Archive
        </DeleteButton>
      )}
    </>
  );
}
