import { api, seg } from '../../api/client';
import type { PlanMilestone, ReleasePlan } from '../../api/releases';
import type { Segment } from '../../api/types';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm';
import { formatDateTime } from '../../format';
import { StrategySummary } from '../flag/strategy-summary';
import { formatWait, nextOf, progressionDue, useNow } from './countdown';
import { ProgressionControl } from './progression-control';

export interface PlanContext {
  plan: ReleasePlan;
  environment: { name: string; type: string; enabled: boolean };
  /** `…/environments/<e>`. */
  base: string;
  canUpdate: boolean;
  segments: Segment[];
  typeNames: Record<string, string>;
  run(action: () => Promise<unknown>): Promise<unknown>;
}

/** What the started milestone waits for: the next one's start, counted down to the second. */
function Countdown({ plan, environment }: Pick<PlanContext, 'plan' | 'environment'>) {
  const due = progressionDue(plan);
  const now = useNow(due !== undefined);
  if (!due) return null;
  const left = due.at - now;
  let text = `${due.next.name} starts in ${formatWait(left)}`;
  if (left <= 0) {
    text = environment.enabled
      ? `${due.next.name} is starting…`
      : `${due.next.name} starts once the flag is on in ${environment.name}`;
  }
  return (
    <p class="countdown" role="timer" aria-live="off">
      Next milestone: {text}
    </p>
  );
}

function status(plan: ReleasePlan, milestone: PlanMilestone): [string, string] {
  if (milestone.id === plan.activeMilestoneId) {
    return milestone.pausedAt ? ['Paused', 'paused'] : ['Active', 'active'];
  }
  if (!milestone.startedAt) return ['Not started', 'waiting'];
  const active = plan.milestones.find((m) => m.id === plan.activeMilestoneId);
  // Started, then left for another: behind the started one it is done; ahead of it, started back from.
  return active && milestone.sortOrder < active.sortOrder ? ['Done', 'done'] : ['Started before', 'done'];
}

/** One milestone of a plan: whether it runs, its strategies, Start, and what follows it by itself. */
export function MilestoneItem({
  milestone,
  index,
  ...context
}: PlanContext & { milestone: PlanMilestone; index: number }) {
  const { plan, environment, base, canUpdate, run } = context;
  const confirm = useConfirm();
  const [label, kind] = status(plan, milestone);
  const active = milestone.id === plan.activeMilestoneId;
  const next = nextOf(plan, milestone);
  const start = async () => {
    if (environment.type === 'production') {
      const ok = await confirm({
        title: `Start “${milestone.name}” in ${environment.name}?`,
        body: (
          <p>From now on SDKs in {environment.name} get its strategies instead of the started milestone’s.</p>
        ),
        confirmLabel: `Start ${milestone.name}`,
      });
      if (!ok) return;
    }
    await run(() => api.post(`${base}/release-plans/${seg(plan.id)}/milestones/${seg(milestone.id)}/start`));
  };
  return (
    <li class={`milestone milestone-${kind}`} aria-current={active ? 'step' : undefined}>
      <div class="milestone-head">
        <h5>
          <span class="milestone-number">{index + 1}</span> {milestone.name}
        </h5>
        <span class={`badge milestone-state milestone-state-${kind}`}>{label}</span>
        {canUpdate && !active && (
          <Button onClick={start} aria-label={`Start ${milestone.name}`}>
            Start
          </Button>
        )}
      </div>
      {milestone.startedAt && <p class="muted">Started {formatDateTime(milestone.startedAt)}</p>}
      {milestone.strategies.map((s) => (
        <div key={s.id} class="milestone-strategy-summary">
          <p class="label">{s.title || context.typeNames[s.name] || s.name}</p>
          <StrategySummary strategy={s} segments={context.segments} />
        </div>
      ))}
      {milestone.strategies.length === 0 && (
        <p class="muted">No strategy: the plan serves nothing while it runs.</p>
      )}
      {next && (
        <ProgressionControl
          milestone={milestone}
          next={next}
          base={`${base}/progressions`}
          canUpdate={canUpdate}
          run={run}
        />
      )}
      {active && <Countdown plan={plan} environment={environment} />}
    </li>
  );
}
