import http from 'node:http';
import type { Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flags } from '../../test/flags.js';
import { stopSdk, synchronizedSdk } from '../../test/official-sdk.js';
import { isPostgres, startReplica, startTestServer, type TestServer } from '../../test/server.js';

const devToken = `default:development.${'1'.repeat(56)}`;
let server: TestServer;
let address: string;
let f: ReturnType<typeof flags>;

beforeAll(async () => {
  server = await startTestServer({
    INIT_CLIENT_API_TOKENS: devToken,
    STREAMING_MAX_CONNECTIONS: '3',
    STREAMING_HEARTBEAT_MS: '200',
    STREAMING_PROMOTE: 'true',
  });
  address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  f = flags(server);
  await f.create('streamed');
  await f.enable('streamed', 'development');
});
afterAll(() => server.close());

interface SseEvent {
  event?: string;
  id?: string;
  data?: string;
  comment?: string;
}

/** An open stream: the events read so far, and a way to wait for the next that matches. */
interface OpenStream {
  status: number;
  events: SseEvent[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  next(match: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  close(): void;
}

function parse(block: string): SseEvent {
  const event: SseEvent = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) event.comment = line.slice(1);
    const [, field, value] = /^(event|id|data): ?(.*)$/.exec(line) ?? [];
    if (field) event[field as 'event' | 'id' | 'data'] = value;
  }
  return event;
}

function stream(headers: Record<string, string> = {}, at = address): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${at}/api/client/streaming`,
      { headers: { authorization: devToken, ...headers } },
      (res) => {
        const events: SseEvent[] = [];
        const waiting: (() => void)[] = [];
        let buffer = '';
        res.setEncoding('utf8');
        const ended = new Promise<void>((done) => res.on('end', () => done()));
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            events.push(parse(buffer.slice(0, end)));
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
          }
          for (const wake of waiting.splice(0)) wake();
        });
        const next = (match: (e: SseEvent) => boolean, ms = 2000) =>
          new Promise<SseEvent>((found, fail) => {
            const deadline = setTimeout(() => fail(new Error('no such event in time')), ms);
            let seen = 0;
            const look = () => {
              const hit = events.slice(seen).find(match);
              seen = events.length;
              if (hit) {
                clearTimeout(deadline);
                found(hit);
              } else waiting.push(look);
            };
            look();
          });
        resolve({ status: res.statusCode ?? 0, events, ended, next, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
  });
}

const body = (e: SseEvent) => JSON.parse(e.data ?? '{}') as { events: { type: string; eventId: number }[] };

describe('GET /api/client/streaming', () => {
  it('opens with unleash-connected holding a hydration, then sends each change as unleash-updated', async () => {
    const s = await stream();
    try {
      expect(s.status).toBe(200);
      const connected = await s.next((e) => e.event === 'unleash-connected');
      const [hydration] = body(connected).events;
      expect(hydration!.type).toBe('hydration');
      expect(connected.id).toBe(String(hydration!.eventId));
      const started = Date.now();
      await f.disable('streamed', 'development');
      const updated = await s.next((e) => e.event === 'unleash-updated', 1000);
      expect(Date.now() - started).toBeLessThan(1000);
      const events = body(updated).events as {
        type: string;
        eventId: number;
        feature: { enabled: boolean };
      }[];
      expect(events.map((e) => [e.type, e.feature.enabled])).toEqual([['feature-updated', false]]);
      expect(Number(updated.id)).toBeGreaterThan(Number(connected.id));
      await s.next((e) => e.comment === 'keep-alive');
    } finally {
      s.close();
    }
  });

  it('resumes from Last-Event-ID with what changed since, or nothing when it is current', async () => {
    const first = await stream();
    const connected = await first.next((e) => e.event === 'unleash-connected');
    first.close();
    await f.enable('streamed', 'development');
    const resumed = await stream({ 'last-event-id': connected.id! });
    try {
      const again = await resumed.next((e) => e.event === 'unleash-connected');
      expect(body(again).events.map((e) => e.type)).toEqual(['feature-updated']);
      const current = await stream({ 'last-event-id': again.id! });
      const nothing = await current.next((e) => e.event === 'unleash-connected');
      expect(nothing.data).toBe('{"events":[]}');
      expect(nothing.id).toBeUndefined();
      current.close();
    } finally {
      resumed.close();
    }
  });

  it('refuses a stream over STREAMING_MAX_CONNECTIONS with 429, and one without a client token with 401', async () => {
    const held = await Promise.all([stream(), stream(), stream()]);
    try {
      await Promise.all(held.map((s) => s.next((e) => e.event === 'unleash-connected')));
      const refused = await server.request('GET', '/api/client/streaming', { token: devToken });
      expect(refused.status).toBe(429);
      expect(refused.body.name).toBe('RateLimitError');
      // No room for one more: polling SDKs are not told to stream.
      const polled = await server.request('GET', '/api/client/features', { token: devToken });
      expect(polled.status).toBe(200);
      expect(polled.headers['fetch-mode']).toBeUndefined();
    } finally {
      for (const s of held) s.close();
    }
    expect((await server.request('GET', '/api/client/streaming')).status).toBe(401);
  });
});

describe('a stream whose token stops being valid', () => {
  async function clientToken(expiresAt?: string): Promise<string> {
    const made = await server.request('POST', '/api/admin/api-tokens', {
      token: server.adminToken,
      body: { tokenName: 'streamer', type: 'client', environment: 'development', expiresAt },
    });
    expect(made.status).toBe(201);
    return made.body.secret;
  }

  it('is ended when the token is deleted, and its client is told 401 when it reconnects', async () => {
    const secret = await clientToken();
    const s = await stream({ authorization: secret });
    try {
      await s.next((e) => e.event === 'unleash-connected');
      const deleted = await server.request('DELETE', `/api/admin/api-tokens/${secret}`, {
        token: server.adminToken,
      });
      expect(deleted.status).toBe(200);
      const started = Date.now();
      await s.ended;
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await server.request('GET', '/api/client/streaming', { token: secret })).status).toBe(401);
    } finally {
      s.close();
    }
  });

  it('is ended soon after the token expires', async () => {
    const secret = await clientToken(new Date(Date.now() + 1500).toISOString());
    const s = await stream({ authorization: secret });
    try {
      await s.next((e) => e.event === 'unleash-connected');
      await s.ended;
      expect(s.events.some((e) => e.comment === 'keep-alive')).toBe(true);
    } finally {
      s.close();
    }
  });

  it("another token's stream goes on", async () => {
    const kept = await stream();
    const secret = await clientToken();
    const gone = await stream({ authorization: secret });
    try {
      await Promise.all([kept, gone].map((s) => s.next((e) => e.event === 'unleash-connected')));
      await server.request('DELETE', `/api/admin/api-tokens/${secret}`, { token: server.adminToken });
      await gone.ended;
      await f.disable('streamed', 'development');
      await kept.next((e) => e.event === 'unleash-updated', 1000);
    } finally {
      kept.close();
      gone.close();
      // As the tests after this one expect it.
      await f.enable('streamed', 'development');
    }
  });
});

describe.runIf(isPostgres())('streams on several processes of one PostgreSQL', () => {
  it('get a change made on another process within a second', async () => {
    const replica = await startReplica(server);
    try {
      const at = await replica.app.listen({ port: 0, host: '127.0.0.1' });
      const s = await stream({}, at);
      try {
        await s.next((e) => e.event === 'unleash-connected');
        const started = Date.now();
        await f.disable('streamed', 'development');
        const updated = await s.next((e) => e.event === 'unleash-updated', 1000);
        expect(Date.now() - started).toBeLessThan(1000);
        expect(body(updated).events.map((e) => e.type)).toEqual(['feature-updated']);
      } finally {
        s.close();
      }
    } finally {
      await replica.close();
    }
  });
});

describe('the official Node SDK in streaming mode', () => {
  /** Toggles the flag and waits up to a second for the SDK to see it. */
  async function expectChangeWithinASecond(sdk: Unleash): Promise<void> {
    const before = sdk.isEnabled('streamed');
    const started = Date.now();
    await (before ? f.disable('streamed', 'development') : f.enable('streamed', 'development'));
    while (sdk.isEnabled('streamed') === before && Date.now() - started < 1000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(sdk.isEnabled('streamed')).toBe(!before);
  }

  it('in polling mode, is moved onto a stream by STREAMING_PROMOTE and sees a change within a second', async () => {
    const polled = await server.request('GET', '/api/client/features', { token: devToken });
    expect(polled.headers['fetch-mode']).toBe('streaming');
    // Synchronized from the stream's hydration: the polled answer that said so was not applied.
    const sdk = await synchronizedSdk(address, devToken, {
      appName: 'promoted-test',
      refreshInterval: 60_000,
    });
    try {
      await expectChangeWithinASecond(sdk);
    } finally {
      stopSdk(sdk);
    }
  });

  it('sees a change within a second while its refresh interval is a minute', async () => {
    const sdk = await synchronizedSdk(address, devToken, {
      appName: 'streaming-test',
      refreshInterval: 60_000,
      experimentalMode: { type: 'streaming' },
    });
    try {
      await expectChangeWithinASecond(sdk);
    } finally {
      stopSdk(sdk);
    }
  });
});
