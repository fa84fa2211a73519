import { api, seg } from '../../api/client';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { formatDateTime } from '../../format';
import { SafeguardPanel } from '../safeguards/safeguard-panel';
import { inOrder, pausedSince } from './countdown';
import { MilestoneItem, type PlanContext } from './milestone-item';

interface Props extends PlanContext {
  canRemove: boolean;
  /** Why nothing can be changed here, when nothing can (the environment takes change requests). */
  readOnlyNote?: string;
}

/** A flag environment's release plan: its milestones in order, the started one marked, its safeguard. */
export function ReleasePlanView({ canRemove, readOnlyNote, ...context }: Props) {
  const { plan, environment, base, canUpdate, run } = context;
  const paused = pausedSince(plan);
  const plansPath = `${base}/release-plans/${seg(plan.id)}`;
  return (
    <section class="release-plan" aria-label={`Release plan in ${environment.name}`}>
      <div class="release-plan-head">
        <h4>
          <span class="label">Release plan:</span> {plan.name}
        </h4>
        {canRemove && (
          <DeleteButton
            confirm={{
              title: `Remove the release plan “${plan.name}” from ${environment.name}?`,
              body: <p>SDKs in {environment.name} no longer get the strategies of its milestones.</p>,
              confirmLabel: 'Remove plan',
            }}
            onDelete={() => run(() => api.del(plansPath))}
            aria-label={`Remove plan in ${environment.name}`}
          >
            Remove plan
          </DeleteButton>
        )}
      </div>
      {plan.description && <p class="muted">{plan.description}</p>}
      {readOnlyNote && <p class="draft-note">{readOnlyNote}</p>}
      {paused && (
        <div class="plan-paused" role="status">
          <span class="badge badge-warning">Paused</span> Automatic progressions are paused since{' '}
          {formatDateTime(paused)}.
          {canUpdate && (
            <Button onClick={() => run(() => api.post(`${base}/progressions/${seg(plan.id)}/resume`))}>
              Resume
            </Button>
          )}
        </div>
      )}
      {plan.safeguards && (
        <SafeguardPanel
          safeguard={plan.safeguards[0]}
          path={`${plansPath}/safeguards`}
          canEdit={canUpdate}
          action="pauses the plan's automatic progressions"
          subject={`the release plan in ${environment.name}`}
          onChanged={() => run(async () => {})}
        />
      )}
      <ol class="milestone-list" aria-label={`Milestones of ${plan.name}`}>
        {inOrder(plan).map((milestone, i) => (
          <MilestoneItem key={milestone.id} {...context} milestone={milestone} index={i} />
        ))}
      </ol>
    </section>
  );
}
