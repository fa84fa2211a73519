import { useEffect, useState } from 'preact/hooks';
import { environmentPath, type ReleasePlan, type Safeguard } from '../../api/releases';
import type { FeatureEnvironment, Segment } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { useDraftEnvironments } from '../../change-requests/drafts';
import { Problem } from '../../components/status';
import { useCan } from '../../session';
import type { FlagTabProps } from '../flag/flag-tab';
import { SafeguardPanel } from '../safeguards/safeguard-panel';
import { AddReleasePlan } from './add-release-plan';
import { progressionDue } from './countdown';
import { ReleasePlanView } from './release-plan-view';

interface Props extends FlagTabProps {
  environment: FeatureEnvironment;
  segments: Segment[];
  typeNames: Record<string, string>;
}

type EnvironmentDetail = Pick<FeatureEnvironment, 'enabled'> & { safeguards?: Safeguard[] };

// What changes by itself is read again now and then: a safeguard may trip at any time, and a
// progression past due is looked at often, so that its milestone shows as started soon after.
const WATCH_MS = 10_000;
const DUE_MS = 2_000;

function watchEvery(plan: ReleasePlan | undefined, detail: EnvironmentDetail | undefined) {
  const due = plan && progressionDue(plan);
  if (due) return due.at <= Date.now() ? DUE_MS : WATCH_MS;
  return plan?.safeguards?.length || detail?.safeguards?.length ? WATCH_MS : undefined;
}

/**
 * A flag environment's release plan and safeguard. Where the environment takes change requests they
 * are only shown: their changes through change requests are not offered here.
 */
export function EnvironmentRelease({ project, feature, environment, segments, typeNames, reload }: Props) {
  const base = environmentPath(project, feature.name, environment.name);
  const plans = useResource<ReleasePlan[]>(`${base}/release-plans`);
  const detail = useResource<EnvironmentDetail>(base);
  const scope = { project, environment: environment.name };
  // Unknown until the project's settings are read: nothing is offered before then.
  const drafted = useDraftEnvironments(project)?.has(environment.name);
  const direct = drafted === false;
  const canUpdate = useCan('UPDATE_FEATURE_STRATEGY', scope) && direct;
  const canAdd = useCan('CREATE_FEATURE_STRATEGY', scope) && direct;
  const canRemove = useCan('DELETE_FEATURE_STRATEGY', scope) && direct;
  const canGuard = useCan('UPDATE_FEATURE_ENVIRONMENT', scope) && direct;
  const [problem, setProblem] = useState<string>();
  const plan = plans.data?.[0];

  const refresh = async () => {
    await Promise.all([plans.reload(), detail.reload()]);
    await reload();
  };
  const run = async (action: () => Promise<unknown>) => {
    setProblem(undefined);
    try {
      await action();
      await refresh();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  const every = watchEvery(plan, detail.data);
  const { reload: readPlans } = plans;
  const { reload: readDetail } = detail;
  useEffect(() => {
    if (every === undefined) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') Promise.all([readPlans(), readDetail()]);
    }, every);
    return () => clearInterval(timer);
  }, [every, readPlans, readDetail]);
  const dueAt = plan && progressionDue(plan)?.at;
  useEffect(() => {
    const wait = dueAt === undefined ? undefined : dueAt - Date.now();
    // A timer longer than about 24 days fires at once; the page is not open that long anyway.
    if (wait === undefined || wait > 86_400_000) return;
    const timer = setTimeout(readPlans, Math.max(0, wait) + 500);
    return () => clearTimeout(timer);
  }, [dueAt, readPlans]);
  // A safeguard that tripped switched the environment off: the flag's switch follows.
  const tripped =
    environment.enabled &&
    detail.data?.enabled === false &&
    (detail.data.safeguards ?? []).some((s) => s.triggeredAt !== null);
  useEffect(() => {
    if (tripped) reload();
  }, [tripped, reload]);

  const safeguards = detail.data?.safeguards;
  const showSafeguard = safeguards !== undefined && (canGuard || safeguards.length > 0);
  if (!plan && !canAdd && !showSafeguard && !problem) return null;
  return (
    <div class="environment-release">
      <Problem message={problem} />
      {plan ? (
        <ReleasePlanView
          plan={plan}
          environment={environment}
          base={base}
          canUpdate={canUpdate}
          canRemove={canRemove}
          readOnlyNote={
            drafted
              ? `${environment.name} takes changes through change requests: the release plan is shown as it is, and cannot be changed here.`
              : undefined
          }
          segments={segments}
          typeNames={typeNames}
          run={run}
        />
      ) : (
        canAdd && <AddReleasePlan project={project} environment={environment} base={base} onAdded={refresh} />
      )}
      {showSafeguard && (
        <SafeguardPanel
          safeguard={safeguards[0]}
          path={`${base}/safeguards`}
          canEdit={canGuard}
          action={`turns the flag off in ${environment.name}`}
          subject={environment.name}
          addText={`Add safeguard to ${environment.name}`}
          onChanged={refresh}
        />
      )}
    </div>
  );
}
