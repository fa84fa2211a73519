import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { evaluate, type FlagSet } from './evaluation/evaluate.js';
import type { ClientFeature, Context, Segment } from './evaluation/types.js';

// The client specification's delta cases (19: a hydration, 20: events) describe what an SDK fed
// by /api/client/delta must conclude. Here the same configurations are made through the admin
// API, a client holds only what this server's delta answers give it, and the cases' expectations
// are checked against what it holds.
const require = createRequire(import.meta.url);
const folder = path.join(
  path.dirname(require.resolve('@unleash/client-specification/package.json')),
  'specifications',
);

interface DeltaEvent {
  type: string;
  eventId: number;
  features?: ClientFeature[];
  segments?: (Segment & { name: string })[];
  feature?: ClientFeature;
  featureName?: string;
  project?: string;
  segment?: Segment & { name: string };
  segmentId?: number;
}

interface SpecCase {
  description: string;
  context: Context;
  toggleName: string;
  expectedResult: boolean;
}

function specification(file: string): { events: DeltaEvent[]; tests: SpecCase[] } {
  const spec = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
  return { events: spec.state.events, tests: spec.tests };
}

const token = `default:development.${'2'.repeat(56)}`;
let server: TestServer;
let f: ReturnType<typeof flags>;

beforeAll(async () => {
  server = await startTestServer({ INIT_CLIENT_API_TOKENS: token });
  f = flags(server);
});
afterAll(() => server.close());

/** An SDK in delta mode: its ETag, and the flags and segments the answers have given it. */
class DeltaClient implements FlagSet {
  private readonly features = new Map<string, ClientFeature>();
  private readonly segments = new Map<number, Segment>();
  private etag: string | undefined;
  /** Every event received, in order. */
  readonly received: DeltaEvent[] = [];

  feature(name: string) {
    return this.features.get(name);
  }

  segment(id: number) {
    return this.segments.get(id);
  }

  async poll(): Promise<DeltaEvent[]> {
    const res = await server.request<{ events: DeltaEvent[] }>('GET', '/api/client/delta', {
      token,
      headers: this.etag === undefined ? {} : { 'if-none-match': this.etag },
    });
    if (res.status === 304) return [];
    expect(res.status).toBe(200);
    this.etag = res.headers.etag as string;
    for (const event of res.body.events) this.apply(event);
    this.received.push(...res.body.events);
    return res.body.events;
  }

  private apply(event: DeltaEvent): void {
    if (event.type === 'hydration') {
      this.features.clear();
      this.segments.clear();
      for (const feature of event.features ?? []) this.features.set(feature.name, feature);
      for (const segment of event.segments ?? []) this.segments.set(segment.id, segment);
    } else if (event.type === 'feature-updated') this.features.set(event.feature!.name, event.feature!);
    else if (event.type === 'feature-removed') this.features.delete(event.featureName!);
    else if (event.type === 'segment-updated') this.segments.set(event.segment!.id, event.segment!);
    else if (event.type === 'segment-removed') this.segments.delete(event.segmentId!);
    else throw new Error(`an event no SDK knows: ${event.type}`);
  }

  isEnabled(name: string, context: Context): boolean {
    const feature = this.feature(name);
    return feature ? evaluate(feature, context, this).enabled : false;
  }
}

const appNames = ['abc', 'edf', 'gbd'];

describe("the client specification's delta cases, made through the admin API", () => {
  it('19: a hydration holds a flag and the segment its strategy uses', async () => {
    const spec = specification('19-delta-api-hydration.json');
    const [hydration] = spec.events;
    const [feature] = hydration!.features!;
    const segment = await f.createSegment({
      name: hydration!.segments![0]!.name,
      constraints: [{ contextName: 'appName', operator: 'IN', values: appNames }],
    });
    await f.create(feature!.name);
    await f.addStrategy(feature!.name, 'development', {
      name: 'flexibleRollout',
      parameters: { groupId: feature!.name, rollout: '100', stickiness: 'default' },
      segments: [segment.id],
    });
    await f.enable(feature!.name, 'development');

    const client = new DeltaClient();
    expect((await client.poll()).map((e) => e.type)).toEqual(['hydration']);
    for (const t of spec.tests) {
      expect(client.isEnabled(t.toggleName, t.context), t.description).toBe(t.expectedResult);
    }
    expect(client.isEnabled(feature!.name, { appName: 'someone-else' })).toBe(false);
  });

  it('20: updates, a removal, and a segment a later flag uses reach a client that hydrated before them', async () => {
    const spec = specification('20-delta-api-events.json');
    const client = new DeltaClient();
    await client.poll();
    const [one, two, , segmentEvent, three] = spec.events;

    for (const event of [one, two]) {
      await f.create(event!.feature!.name);
      await f.addStrategy(event!.feature!.name, 'development', { name: 'default' });
      await f.enable(event!.feature!.name, 'development');
      expect((await client.poll()).map((e) => e.type)).toContain('feature-updated');
    }
    await f.archive([two!.feature!.name]);
    expect(await client.poll()).toContainEqual(
      expect.objectContaining({
        type: 'feature-removed',
        featureName: two!.feature!.name,
        project: 'default',
      }),
    );
    const segment = await f.createSegment({
      name: segmentEvent!.segment!.name,
      constraints: [{ contextName: 'appName', operator: 'IN', values: appNames }],
    });
    await client.poll();
    await f.create(three!.feature!.name);
    await f.addStrategy(three!.feature!.name, 'development', { name: 'default', segments: [segment.id] });
    await f.enable(three!.feature!.name, 'development');
    await client.poll();

    // The segment reached the client before the flag that uses it.
    const types = client.received.map((e) =>
      e.type === 'segment-updated' ? `segment ${e.segment!.name}` : `${e.type} ${e.feature?.name ?? ''}`,
    );
    expect(types.indexOf(`segment ${segmentEvent!.segment!.name}`)).toBeGreaterThanOrEqual(0);
    expect(types.indexOf(`segment ${segmentEvent!.segment!.name}`)).toBeLessThan(
      types.lastIndexOf(`feature-updated ${three!.feature!.name}`),
    );
    for (const t of spec.tests) {
      expect(client.isEnabled(t.toggleName, t.context), t.description).toBe(t.expectedResult);
    }
    expect(client.isEnabled(three!.feature!.name, { appName: 'someone-else' })).toBe(false);
    // Every eventId is a whole number that fits 32 bits, and they only grow.
    const ids = client.received.map((e) => e.eventId);
    expect(ids.every((id) => Number.isInteger(id) && id > 0 && id < 2 ** 31)).toBe(true);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });
});
