import { ENVIRONMENTS, type ObservedFeature } from './crash-ledger.js';
import { METRICS_FLAGS } from './crash-load.js';
import { expectStatus } from './http.js';

interface Event {
  id: number;
  type: string;
  project: string | null;
  featureName: string | null;
  environment: string | null;
  data: any;
}

export interface ServerState {
  features: Map<string, ObservedFeature>;
  /** Oldest first. */
  events: Event[];
  /** Per metrics flag: the yes and no counts of every hour E20 shows, summed. */
  metrics: Record<string, { yes: number; no: number }>;
}

const EVENT_PAGE = 1000;

/** Everything the crash test checks, read through the API as any client would. */
export async function readState(base: string, token: string): Promise<ServerState> {
  const list = await expectStatus(base, 'GET', '/api/admin/projects/default/features', 200, { token });
  const features = new Map<string, ObservedFeature>();
  await Promise.all(
    list.features.map(async ({ name }: { name: string }) => {
      const feature = await expectStatus(base, 'GET', `/api/admin/projects/default/features/${name}`, 200, {
        token,
      });
      features.set(name, {
        environments: new Map(
          feature.environments.map((e: any) => [
            e.name,
            {
              enabled: e.enabled,
              strategies: e.strategies.map((s: any) => ({ id: s.id, parameters: s.parameters })),
            },
          ]),
        ),
      });
    }),
  );
  // Pages are counted from the newest event: one written while they are read (a scheduled change
  // request applied by its job) moves the rest down, and the next page repeats the last one.
  const byId = new Map<number, Event>();
  for (let offset = 0; ; offset += EVENT_PAGE) {
    const page = await expectStatus(
      base,
      'GET',
      `/api/admin/events?limit=${EVENT_PAGE}&offset=${offset}`,
      200,
      { token },
    );
    for (const event of page.events as Event[]) byId.set(event.id, event);
    if (page.events.length < EVENT_PAGE) break;
  }
  const events = [...byId.values()].sort((a, b) => a.id - b.id);
  const metrics: ServerState['metrics'] = {};
  for (const flag of METRICS_FLAGS.filter((f) => features.has(f))) {
    const raw = await expectStatus(base, 'GET', `/api/admin/client-metrics/features/${flag}/raw`, 200, {
      token,
    });
    metrics[flag] = { yes: 0, no: 0 };
    for (const hour of raw.data) {
      metrics[flag].yes += hour.yes;
      metrics[flag].no += hour.no;
    }
  }
  return { features, events, metrics };
}

const sortedJson = (o: Record<string, string>) =>
  JSON.stringify(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/**
 * What holds whatever was acknowledged: every change is there with its audit event or neither is.
 * A feature has one `feature-created` event and all its environments; a strategy has one
 * `feature-strategy-add` event and the parameters of its newest add or update event; an
 * environment is on exactly when its newest switch event says so.
 */
export function findHalfWrites(state: ServerState): string[] {
  const problems: string[] = [];
  const created = new Map<string, number>();
  const strategyEvents = new Map<string, Event[]>();
  const switches = new Map<string, boolean>();
  for (const event of state.events) {
    // Other projects' flags are other checks' (scheduled change requests).
    if (event.project !== null && event.project !== 'default') continue;
    if (event.type === 'feature-created') {
      created.set(event.featureName!, (created.get(event.featureName!) ?? 0) + 1);
    } else if (event.type === 'feature-strategy-add' || event.type === 'feature-strategy-update') {
      strategyEvents.set(event.data.id, [...(strategyEvents.get(event.data.id) ?? []), event]);
    } else if (
      event.type === 'feature-environment-enabled' ||
      event.type === 'feature-environment-disabled'
    ) {
      switches.set(`${event.featureName}/${event.environment}`, event.type === 'feature-environment-enabled');
    }
  }
  for (const [name, count] of created) {
    if (!state.features.has(name)) problems.push(`feature-created event for ${name}, which does not exist`);
    else if (count !== 1) problems.push(`${count} feature-created events for ${name}`);
  }
  const strategyIds = new Set<string>();
  for (const [name, feature] of state.features) {
    if (!created.has(name)) problems.push(`feature ${name} exists without its feature-created event`);
    const missing = ENVIRONMENTS.filter((e) => !feature.environments.has(e));
    if (missing.length > 0) problems.push(`feature ${name} lacks its environments ${missing.join(', ')}`);
    for (const [environment, { enabled, strategies }] of feature.environments) {
      const switched = switches.get(`${name}/${environment}`) ?? false;
      if (enabled !== switched) {
        problems.push(
          `feature ${name} is ${enabled ? 'on' : 'off'} in ${environment}, its newest switch event says ${switched ? 'on' : 'off'}`,
        );
      }
      for (const strategy of strategies) {
        strategyIds.add(strategy.id);
        const events = strategyEvents.get(strategy.id) ?? [];
        const adds = events.filter((e) => e.type === 'feature-strategy-add').map((e) => e.id);
        if (adds.length !== 1) {
          problems.push(
            `strategy ${strategy.id} of ${name} has ${adds.length} feature-strategy-add events (${adds.join(', ')})`,
          );
        }
        const newest = events.at(-1);
        if (newest && sortedJson(newest.data.parameters) !== sortedJson(strategy.parameters)) {
          problems.push(
            `strategy ${strategy.id} of ${name} holds ${JSON.stringify(strategy.parameters)}, its newest event (${newest.type} ${newest.id}) says ${JSON.stringify(newest.data.parameters)}`,
          );
        }
      }
    }
  }
  for (const id of strategyEvents.keys()) {
    if (!strategyIds.has(id))
      problems.push(`events of strategy ${id}, which does not exist (none is ever removed here)`);
  }
  return problems;
}
