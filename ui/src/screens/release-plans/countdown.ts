import { useEffect, useState } from 'preact/hooks';
import type { PlanMilestone, ReleasePlan } from '../../api/releases';

/** The time now, renewed every `everyMs` while `running`: what a live countdown is drawn from. */
export function useNow(running: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [running, everyMs]);
  return now;
}

/** "4 min 12 s", "1 h 5 min", "12 s": a wait as people say it, to the second while it is short. */
export function formatWait(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${seconds} s`;
  return `${seconds} s`;
}

export const inOrder = (plan: ReleasePlan): PlanMilestone[] =>
  [...plan.milestones].sort((a, b) => a.sortOrder - b.sortOrder);

/** The milestone after this one in the plan, which its progression starts. */
export function nextOf(plan: ReleasePlan, milestone: PlanMilestone): PlanMilestone | undefined {
  const list = inOrder(plan);
  return list[list.findIndex((m) => m.id === milestone.id) + 1];
}

/** When the plan's started milestone hands over to the next by itself, if it is set to and not paused. */
export function progressionDue(plan: ReleasePlan): { at: number; next: PlanMilestone } | undefined {
  const active = plan.milestones.find((m) => m.id === plan.activeMilestoneId);
  if (!active?.startedAt || !active.transitionCondition || active.pausedAt) return undefined;
  const next = nextOf(plan, active);
  if (!next) return undefined;
  return { at: Date.parse(active.startedAt) + active.transitionCondition.intervalMinutes * 60_000, next };
}

/** Since when the plan's progressions are paused (a safeguard tripped), if they are. */
export function pausedSince(plan: ReleasePlan): string | undefined {
  return plan.milestones.map((m) => m.pausedAt).find((at): at is string => at !== null);
}
