/** The stages a feature goes through, in their order. */
export const STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;

export type StageName = (typeof STAGES)[number];

export type CompletedStatus = 'kept' | 'discarded';

/** A stage a feature has entered. */
export interface Stage {
  stage: StageName;
  /** Completed only: whether the feature's code was kept or discarded. */
  status: CompletedStatus | null;
  statusValue: string | null;
  enteredStageAt: Date;
}

/** Stages entered at the same moment (SDKs reporting a feature first from production) stay in order. */
export function inStageOrder(stages: readonly Stage[]): Stage[] {
  return [...stages].sort(
    (a, b) =>
      a.enteredStageAt.getTime() - b.enteredStageAt.getTime() ||
      STAGES.indexOf(a.stage) - STAGES.indexOf(b.stage),
  );
}

/**
 * Where a feature stands: the furthest stage it has entered. A feature reported live and later
 * reported again from development stays live, as in Unleash.
 */
export function currentStage(stages: readonly Stage[]): Stage | undefined {
  for (const name of [...STAGES].reverse()) {
    const found = stages.find((s) => s.stage === name);
    if (found) return found;
  }
  return undefined;
}

/** A stage as the lifecycle answers show it: `status` only where there is one. */
export function describeStage(s: Stage) {
  return {
    stage: s.stage,
    ...(s.status ? { status: s.status } : {}),
    enteredStageAt: s.enteredStageAt,
  };
}

/** The key of the lifecycle count answer: `preLive` for `pre-live`. */
export function countKey(stage: StageName): 'initial' | 'preLive' | 'live' | 'completed' | 'archived' {
  return stage === 'pre-live' ? 'preLive' : stage;
}

/** The stage a feature stands at, as the feature's own answer shows it (absent before any). */
export function describeLifecycle(stages: readonly Stage[]) {
  const stage = currentStage(stages);
  return stage ? { lifecycle: describeStage(stage) } : {};
}
