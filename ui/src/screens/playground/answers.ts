import type { Constraint } from '../../api/types';

// The playground's answers (POST /api/admin/playground and …/advanced), as the UI reads them.

export interface JudgedConstraint extends Constraint {
  /** Whether the context meets it. */
  result: boolean;
}

export interface ResultVariant {
  name: string;
  enabled: boolean;
  payload?: { type: string; value: string };
}

export interface JudgedStrategy {
  id: string;
  name: string;
  title?: string;
  disabled: boolean;
  parameters: Record<string, string>;
  result: {
    enabled: boolean | 'unknown';
    /** `incomplete`: a custom strategy only an SDK can evaluate; `unevaluated`: disabled. */
    evaluationStatus: 'complete' | 'incomplete' | 'unevaluated';
    variant?: ResultVariant | null;
  };
  constraints: JudgedConstraint[];
  segments: { id: number; name: string; result: boolean; constraints: JudgedConstraint[] }[];
}

export interface Evaluation {
  name: string;
  projectId: string;
  isEnabled: boolean;
  isEnabledInCurrentEnvironment: boolean;
  hasUnsatisfiedDependency: boolean;
  variant: ResultVariant;
  strategies: { result: boolean | 'unknown'; data: JudgedStrategy[] };
}

export interface PlaygroundAnswer {
  features: Evaluation[];
}

export interface AdvancedAnswer {
  features: {
    name: string;
    projectId: string;
    environments: Record<string, (Evaluation & { environment: string; context: Record<string, string> })[]>;
  }[];
  warnings?: { invalidContextProperties: string[] };
}

/** One flag evaluated in one environment for one context: a row of the results. */
export interface ResultRow extends Evaluation {
  environment: string;
  /** The fields that differ between the contexts tried, with this row's values (empty: one context). */
  varying: Record<string, string>;
}

export interface Results {
  rows: ResultRow[];
  environments: string[];
  /** The names of the context fields that took several values. */
  varyingFields: string[];
  warnings: string[];
}

/** The plain answer: one row per flag. */
export function fromPlain(answer: PlaygroundAnswer, environment: string): Results {
  return {
    rows: answer.features.map((f) => ({ ...f, environment, varying: {} })),
    environments: [environment],
    varyingFields: [],
    warnings: [],
  };
}

/** The advanced answer: a row per flag, environment and combination of the context's values. */
export function fromAdvanced(answer: AdvancedAnswer, environments: string[]): Results {
  const all = answer.features.flatMap((f) => environments.flatMap((env) => f.environments[env] ?? []));
  const fields = new Set(all.flatMap((row) => Object.keys(row.context)));
  const varyingFields = [...fields].filter((name) => new Set(all.map((r) => r.context[name])).size > 1);
  return {
    rows: all.map(({ context, ...row }) => ({
      ...row,
      varying: Object.fromEntries(varyingFields.map((name) => [name, context[name] ?? ''])),
    })),
    environments,
    varyingFields,
    warnings: (answer.warnings?.invalidContextProperties ?? []).map(
      (name) => `The field “${name}” was left out: its value is not text.`,
    ),
  };
}
