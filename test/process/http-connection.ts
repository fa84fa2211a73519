import net from 'node:net';

export interface Answer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export interface Exchange {
  /** When the request's bytes (all of them, or the first half when held back) were handed to the kernel. */
  readonly writtenAt: Promise<number>;
  /** The complete answer; fails when the connection ends without one. */
  readonly answer: Promise<Answer>;
  /** Sends the half of the body held back. */
  finish(): void;
}

/**
 * One kept-alive HTTP/1.1 connection, one request at a time, as an SDK or a proxy holds them. Written
 * on a bare socket so that the test knows when each request left (before or after a signal) and
 * can hold half of a body back: a request the server is certainly in the middle of.
 */
export class HttpConnection {
  private received = Buffer.alloc(0);
  private waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | undefined;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.parse();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.waiting?.reject(
          new Error(
            `the connection ended without a whole answer (received ${JSON.stringify(this.received.toString())})`,
          ),
        );
        this.waiting = undefined;
        resolve();
      }),
    );
  }

  static async open(base: string): Promise<HttpConnection> {
    const url = new URL(base);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new HttpConnection(socket);
  }

  get open(): boolean {
    return !this.socket.destroyed && !this.socket.readableEnded;
  }

  request(method: string, path: string, token?: string, body?: unknown, holdBack = false): Exchange {
    const payload = Buffer.from(body === undefined ? '' : JSON.stringify(body));
    const cut = holdBack ? Math.floor(payload.length / 2) : payload.length;
    const answer = new Promise<Answer>((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
    answer.catch(() => {}); // the caller awaits it
    const head =
      `${method} ${path} HTTP/1.1\r\nHost: flagpole\r\n` +
      (token ? `Authorization: ${token}\r\n` : '') +
      (body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n`) +
      '\r\n';
    const writtenAt = new Promise<number>((resolve) => {
      this.socket.write(Buffer.concat([Buffer.from(head), payload.subarray(0, cut)]), () =>
        resolve(performance.now()),
      );
    });
    return { writtenAt, answer, finish: () => this.socket.write(payload.subarray(cut)) };
  }

  close(): void {
    this.socket.destroy();
  }

  private parse(): void {
    const end = this.received.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const [statusLine, ...lines] = this.received.subarray(0, end).toString().split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (this.received.length - end - 4 < length) return;
    const body = this.received.subarray(end + 4, end + 4 + length).toString();
    this.received = this.received.subarray(end + 4 + length);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting.resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]), headers, body });
  }
}
