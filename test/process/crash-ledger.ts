/**
 * What the crash test's clients were told: every write answered 2xx (acknowledged, so it must
 * survive a kill -9), and, per client, the one write whose answer never came (it may or may not
 * have landed, but never half of it).
 */

export const ENVIRONMENTS = ['development', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface StrategyEntry {
  id: string;
  feature: string;
  environment: Environment;
  /** Every write of a strategy sets a groupId of its own, so its state names the last write that landed. */
  groupId: string;
}

export interface FeatureEntry {
  name: string;
  enabled: Record<Environment, boolean>;
  strategies: StrategyEntry[];
}

export type Unanswered =
  | { kind: 'create'; feature: string }
  | { kind: 'add'; feature: string; environment: Environment; groupId: string }
  | { kind: 'update'; strategy: StrategyEntry; groupId: string }
  | { kind: 'toggle'; feature: FeatureEntry; environment: Environment; enabled: boolean }
  | { kind: 'metrics'; count: number };

/** One client's features (it alone writes them, one request at a time) and its unanswered write. */
export interface ClientLedger {
  features: FeatureEntry[];
  unanswered?: Unanswered;
}

/** What the server holds, read back through the API after a restart. */
export interface ObservedFeature {
  environments: Map<
    string,
    { enabled: boolean; strategies: { id: string; parameters: Record<string, string> }[] }
  >;
}

export class Ledger {
  readonly clients: ClientLedger[];
  /** Usage counts answered 202, and those whose answer never came. */
  metricsAcknowledged = 0;
  metricsUnanswered = 0;

  constructor(clients: number) {
    this.clients = Array.from({ length: clients }, () => ({ features: [] }));
  }

  /**
   * Checks every acknowledged write against what the server holds and settles each unanswered one
   * from it (landed or not); returns what is missing or wrong.
   */
  settle(observed: Map<string, ObservedFeature>): string[] {
    const problems: string[] = [];
    for (const client of this.clients) {
      const pending = client.unanswered;
      client.unanswered = undefined;
      if (pending) this.takeIn(client, pending, observed);
      for (const feature of client.features) {
        const found = observed.get(feature.name);
        if (!found) problems.push(`acknowledged feature ${feature.name} is gone`);
        else problems.push(...checkFeature(feature, found, pending));
      }
    }
    return problems;
  }

  /** An unanswered create or add that landed joins the ledger; the others are judged with it. */
  private takeIn(client: ClientLedger, pending: Unanswered, observed: Map<string, ObservedFeature>): void {
    if (pending.kind === 'metrics') this.metricsUnanswered += pending.count;
    if (pending.kind === 'create' && observed.has(pending.feature)) {
      client.features.push({
        name: pending.feature,
        enabled: { development: false, production: false },
        strategies: [],
      });
    }
    if (pending.kind === 'add') {
      const landed = observed
        .get(pending.feature)
        ?.environments.get(pending.environment)
        ?.strategies.find((s) => s.parameters.groupId === pending.groupId);
      const feature = client.features.find((f) => f.name === pending.feature);
      if (landed && feature) {
        feature.strategies.push({
          id: landed.id,
          feature: pending.feature,
          environment: pending.environment,
          groupId: pending.groupId,
        });
      }
    }
  }
}

/**
 * A feature's environments are as its last acknowledged switches left them, and its strategies
 * hold the groupId of their last acknowledged write, except where the unanswered write may have
 * landed instead. The ledger then takes what the server holds.
 */
function checkFeature(
  feature: FeatureEntry,
  found: ObservedFeature,
  pending: Unanswered | undefined,
): string[] {
  const problems: string[] = [];
  for (const environment of ENVIRONMENTS) {
    const state = found.environments.get(environment);
    if (!state) {
      problems.push(`feature ${feature.name} has no ${environment} environment`);
      continue;
    }
    const mayHaveSwitched =
      pending?.kind === 'toggle' && pending.feature === feature && pending.environment === environment;
    if (
      state.enabled !== feature.enabled[environment] &&
      !(mayHaveSwitched && state.enabled === pending.enabled)
    ) {
      problems.push(
        `feature ${feature.name} is ${state.enabled ? 'on' : 'off'} in ${environment}; its last acknowledged ` +
          `switch turned it ${feature.enabled[environment] ? 'on' : 'off'}`,
      );
    }
    feature.enabled[environment] = state.enabled;
  }
  for (const strategy of feature.strategies) {
    const stored = found.environments.get(strategy.environment)?.strategies.find((s) => s.id === strategy.id);
    if (!stored) {
      problems.push(
        `acknowledged strategy ${strategy.id} of ${feature.name} in ${strategy.environment} is gone`,
      );
      continue;
    }
    const groupId = stored.parameters.groupId;
    const mayHaveUpdated = pending?.kind === 'update' && pending.strategy === strategy;
    if (groupId !== strategy.groupId && !(mayHaveUpdated && groupId === pending.groupId)) {
      problems.push(
        `strategy ${strategy.id} of ${feature.name} holds groupId ${groupId}; its last acknowledged write set ${strategy.groupId}`,
      );
    }
    if (groupId) strategy.groupId = groupId;
  }
  return problems;
}
