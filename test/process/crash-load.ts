import {
  type ClientLedger,
  ENVIRONMENTS,
  type FeatureEntry,
  type Ledger,
  type Unanswered,
} from './crash-ledger.js';
import { call } from './http.js';
import type { Random } from './seeded-random.js';

export interface Target {
  base: string;
  adminToken: string;
  /** A client token of the development environment, for SDK metrics. */
  clientToken: string;
}

/** The two flags every metrics report counts equally: a batch written half would show as a difference. */
export const METRICS_FLAGS = ['metrics-a', 'metrics-b'] as const;

const MAX_FEATURES_PER_CLIENT = 6;
const MAX_STRATEGIES_PER_ENVIRONMENT = 3;
const FEATURES = '/api/admin/projects/default/features';

type Step = { ok: true } | { ok: false; unanswered: Unanswered };

/**
 * Drives the clients until `stopping()` says so, each one write at a time on features of its own
 * (so the last acknowledged write of each thing is known); answers that are neither 2xx nor a
 * lost connection go to `unexpected`.
 */
export async function runClients(
  target: Target,
  ledger: Ledger,
  randoms: Random[],
  round: number,
  stopping: () => boolean,
  unexpected: string[],
): Promise<{ acknowledged: number; unanswered: number }> {
  const counts = { acknowledged: 0, unanswered: 0 };
  await Promise.all(
    ledger.clients.map(async (client, index) => {
      const writer = new ClientWriter(target, ledger, client, randoms[index]!, `r${round}-c${index}`);
      while (!stopping()) {
        try {
          const step = await writer.step();
          if (!step.ok) {
            counts.unanswered += 1;
            client.unanswered = step.unanswered;
            return;
          }
          counts.acknowledged += 1;
        } catch (error) {
          unexpected.push((error as Error).message);
          return;
        }
      }
    }),
  );
  return counts;
}

class ClientWriter {
  private made = 0;

  constructor(
    private readonly target: Target,
    private readonly ledger: Ledger,
    private readonly client: ClientLedger,
    private readonly random: Random,
    private readonly prefix: string,
  ) {}

  private unique(): string {
    this.made += 1;
    return `${this.prefix}-${this.made}`;
  }

  step(): Promise<Step> {
    const { random, client } = this;
    const roll = random.next();
    if (client.features.length === 0 || (roll < 0.1 && client.features.length < MAX_FEATURES_PER_CLIENT)) {
      return this.create();
    }
    const feature = random.pick(client.features);
    const environment = random.pick(ENVIRONMENTS);
    if (roll < 0.3) return this.metrics();
    if (roll < 0.5) {
      const count = feature.strategies.filter((s) => s.environment === environment).length;
      if (count < MAX_STRATEGIES_PER_ENVIRONMENT) return this.add(feature, environment);
    }
    if (roll < 0.75 && feature.strategies.length > 0) return this.update(feature);
    return this.toggle(feature, environment);
  }

  private async send(method: string, path: string, body?: unknown, token = this.target.adminToken) {
    const outcome = await call(this.target.base, method, path, { token, body });
    if (outcome.answered && (outcome.status < 200 || outcome.status > 299)) {
      throw new Error(`${method} ${path} answered ${outcome.status}: ${outcome.text}`);
    }
    return outcome;
  }

  private async create(): Promise<Step> {
    const name = this.unique();
    const outcome = await this.send('POST', FEATURES, { name });
    if (!outcome.answered) return { ok: false, unanswered: { kind: 'create', feature: name } };
    this.client.features.push({ name, enabled: { development: false, production: false }, strategies: [] });
    return { ok: true };
  }

  private parameters(groupId: string) {
    return { rollout: String(this.random.int(0, 100)), stickiness: 'default', groupId };
  }

  private async add(feature: FeatureEntry, environment: (typeof ENVIRONMENTS)[number]): Promise<Step> {
    const groupId = this.unique();
    const outcome = await this.send(
      'POST',
      `${FEATURES}/${feature.name}/environments/${environment}/strategies`,
      {
        name: 'flexibleRollout',
        parameters: this.parameters(groupId),
      },
    );
    if (!outcome.answered) {
      return { ok: false, unanswered: { kind: 'add', feature: feature.name, environment, groupId } };
    }
    feature.strategies.push({ id: outcome.body.id, feature: feature.name, environment, groupId });
    return { ok: true };
  }

  private async update(feature: FeatureEntry): Promise<Step> {
    const strategy = this.random.pick(feature.strategies);
    const groupId = this.unique();
    const outcome = await this.send(
      'PUT',
      `${FEATURES}/${feature.name}/environments/${strategy.environment}/strategies/${strategy.id}`,
      { name: 'flexibleRollout', parameters: this.parameters(groupId) },
    );
    if (!outcome.answered) return { ok: false, unanswered: { kind: 'update', strategy, groupId } };
    strategy.groupId = groupId;
    return { ok: true };
  }

  private async toggle(feature: FeatureEntry, environment: (typeof ENVIRONMENTS)[number]): Promise<Step> {
    const enabled = !feature.enabled[environment];
    const outcome = await this.send(
      'POST',
      `${FEATURES}/${feature.name}/environments/${environment}/${enabled ? 'on' : 'off'}`,
    );
    if (!outcome.answered)
      return { ok: false, unanswered: { kind: 'toggle', feature, environment, enabled } };
    feature.enabled[environment] = enabled;
    return { ok: true };
  }

  private async metrics(): Promise<Step> {
    const count = this.random.int(1, 100);
    const start = new Date();
    const toggles = Object.fromEntries(METRICS_FLAGS.map((flag) => [flag, { yes: count, no: 0 }]));
    const outcome = await this.send(
      'POST',
      '/api/client/metrics',
      {
        appName: 'crash-test',
        instanceId: this.prefix,
        bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 1000).toISOString(), toggles },
      },
      this.target.clientToken,
    );
    if (!outcome.answered) return { ok: false, unanswered: { kind: 'metrics', count } };
    this.ledger.metricsAcknowledged += count;
    return { ok: true };
  }
}
