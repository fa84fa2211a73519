import type { ServerResponse } from 'node:http';
import type { FeatureQuery } from './answers.js';
import { type DeltaAnswer, type DeltaLog, deltaFor } from './delta.js';
import type { FlagSnapshot } from './snapshot.js';

export interface StreamLimits {
  /** Streams this process holds at most. */
  maxConnections: number;
  /** How often every stream gets a keep-alive comment (and its credential is checked again). */
  heartbeatMs: number;
}

/** Whether the credential a stream was opened with still names a token allowed to hold it. */
export type CredentialCheck = (credential: string) => Promise<boolean>;

/**
 * What a stream may hold unsent: a client that stops reading (or reads slower than changes come)
 * is cut off, reconnects and gets a hydration, instead of growing this process's memory.
 */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

interface Stream {
  q: FeatureQuery;
  /** The Authorization header it was opened with. */
  credential: string;
  /** The revision the client holds: the last event id sent. */
  revision: number;
  res: ServerResponse;
}

/** One Server-Sent Event, as the SDKs read it: a name, the id the client resumes from, the body. */
function message(name: string, answer: DeltaAnswer | null): string {
  if (!answer) return `event: ${name}\ndata: {"events":[]}\n\n`;
  return `event: ${name}\nid: ${answer.eventId}\ndata: ${answer.body.toString()}\n\n`;
}

/**
 * The SDK streams of this process (`GET /api/client/streaming`): each gets `unleash-connected`
 * with what its client lacks (a hydration, or the events since the `Last-Event-ID` it resumes
 * from), then `unleash-updated` with the events of every revision that changes what its token
 * sees, as the delta API answers them (streams of one query share one answer). A keep-alive
 * comment goes to every stream while nothing changes.
 */
export class StreamHub {
  private readonly streams = new Set<Stream>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly snapshot: FlagSnapshot,
    private readonly log: DeltaLog,
    private readonly limits: StreamLimits,
    private readonly isAllowed: CredentialCheck,
  ) {
    log.onApplied(() => this.push());
  }

  get size(): number {
    return this.streams.size;
  }

  get full(): boolean {
    return this.streams.size >= this.limits.maxConnections;
  }

  /** Takes over the response: headers, the first event, then whatever changes until it closes. */
  open(res: ServerResponse, q: FeatureQuery, credential: string, lastEventId: number | undefined): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      // Proxies that buffer answers would hold the events back.
      'x-accel-buffering': 'no',
    });
    const answer = deltaFor(this.snapshot, this.log, q, lastEventId);
    const stream: Stream = {
      q,
      credential,
      revision: answer?.eventId ?? lastEventId ?? this.snapshot.revision,
      res,
    };
    res.on('close', () => {
      this.streams.delete(stream);
      if (this.streams.size === 0) this.stopHeartbeat();
    });
    // Gone already (the client left while this request was handled): 'close' has been and gone.
    if (res.destroyed) return;
    this.streams.add(stream);
    this.send(stream, message('unleash-connected', answer));
    this.heartbeat ??= setInterval(() => this.keepAlive(), this.limits.heartbeatMs).unref();
  }

  private send(stream: Stream, text: string): void {
    if (stream.res.writableLength > MAX_UNSENT_BYTES) stream.res.destroy();
    else stream.res.write(text);
  }

  private push(): void {
    for (const stream of this.streams) {
      const answer = deltaFor(this.snapshot, this.log, stream.q, stream.revision);
      if (!answer) continue;
      stream.revision = answer.eventId;
      this.send(stream, message('unleash-updated', answer));
    }
  }

  private keepAlive(): void {
    for (const stream of this.streams) this.send(stream, ':keep-alive\n\n');
    void this.recheck();
  }

  /**
   * Ends the streams whose token was deleted or has expired: a request is authenticated once, a
   * stream lives on, and must not go on receiving flags its credential no longer opens. Called when
   * the credentials change (the sync) and with every keep-alive (expiry). Each credential is
   * checked once, from the identity cache; a check that fails (the database away) ends nothing.
   * The ended stream's client reconnects, is told 401, and stops or polls.
   */
  async recheck(): Promise<void> {
    const verdicts = new Map<string, Promise<boolean>>();
    const checked = [...this.streams].map(async (stream) => {
      let verdict = verdicts.get(stream.credential);
      if (!verdict) {
        verdict = this.isAllowed(stream.credential).catch(() => true);
        verdicts.set(stream.credential, verdict);
      }
      if (!(await verdict)) {
        this.streams.delete(stream);
        stream.res.end();
      }
    });
    await Promise.all(checked);
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** Ends every stream (the server is stopping): their clients reconnect, to another process. */
  closeAll(): void {
    for (const stream of this.streams) stream.res.end();
    this.streams.clear();
    this.stopHeartbeat();
  }
}
