import http from 'node:http';

/** A flag as an SDK holds it, reduced to what the tests compare. */
export type Held = Map<string, string>;

interface DeltaEvent {
  type: string;
  eventId: number;
  features?: { name: string }[];
  feature?: { name: string };
  featureName?: string;
}

/** A flag's state as compared between a stream's copy and a process's answer. */
export const stateOf = (feature: unknown) => JSON.stringify(feature);

/**
 * What an SDK in streaming mode holds: the flags of the hydration, then every delta applied in
 * order. It reconnects when its stream ends (to `base()`, which may name another process), with
 * `Last-Event-ID`, as the official SDKs do. Every event id of one connection must be greater than
 * the one before: a change seen twice or out of order is recorded as a fault.
 */
export class StreamView {
  readonly flags: Held = new Map();
  readonly faults: string[] = [];
  lastEventId = 0;
  hydrations = 0;
  connections = 0;
  private request: http.ClientRequest | undefined;
  private closed = false;

  constructor(
    private readonly base: () => string,
    private readonly token: string,
  ) {}

  open(): void {
    if (this.closed) return;
    this.connections++;
    const headers: Record<string, string> = { authorization: this.token, accept: 'text/event-stream' };
    if (this.lastEventId > 0) headers['last-event-id'] = String(this.lastEventId);
    let buffer = '';
    const again = () => {
      if (this.request !== req) return;
      this.request = undefined;
      setTimeout(() => this.open(), 100);
    };
    const req = http.get(`${this.base()}/api/client/streaming`, { headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        res.on('end', again);
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          this.take(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      });
      res.on('end', again);
      res.on('error', again);
    });
    req.on('error', again);
    this.request = req;
  }

  close(): void {
    this.closed = true;
    this.request?.destroy();
  }

  private take(block: string): void {
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (!data) return;
    const { events } = JSON.parse(data) as { events: DeltaEvent[] };
    const first = events[0];
    // A message carries the changes of revisions after the last one held: one again (or an older
    // one) would be a change applied twice.
    if (first && first.type !== 'hydration' && first.eventId <= this.lastEventId) {
      this.faults.push(`a message from event ${first.eventId} (${first.type}) after ${this.lastEventId}`);
    }
    for (const event of events) {
      if (event.type === 'hydration') {
        this.hydrations++;
        this.flags.clear();
        for (const f of event.features ?? []) this.flags.set(f.name, stateOf(f));
        this.lastEventId = event.eventId;
        continue;
      }
      if (event.eventId < this.lastEventId) {
        this.faults.push(`event ${event.eventId} (${event.type}) after ${this.lastEventId}`);
      }
      if (event.type === 'feature-updated' && event.feature) {
        this.flags.set(event.feature.name, stateOf(event.feature));
      } else if (event.type === 'feature-removed' && event.featureName) {
        this.flags.delete(event.featureName);
      }
      this.lastEventId = Math.max(this.lastEventId, event.eventId);
    }
  }
}
