import http from 'node:http';
import https from 'node:https';
import { pinned, type ResolvedAddress } from '../outbound/targets.js';

export interface OutgoingRequest {
  url: URL;
  /** The addresses checked for the URL's host: the connection goes to one of them, no other. */
  addresses: ResolvedAddress[];
  method: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborts the request (the server is stopping). */
  signal: AbortSignal;
}

export interface Answer {
  status: number;
  /** Where a redirect pointed; redirects are never followed. */
  location?: string;
}

/** How much of an answer is read before the connection is closed: only its status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends one request and reads its answer's status, within `timeoutMs` for the whole exchange.
 * A fresh connection each time (no agent): a pooled one could lead to an address checked before.
 */
export function sendRequest(request: OutgoingRequest): Promise<Answer> {
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(request.url, {
      method: request.method,
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      lookup: pinned(request.addresses),
      agent: false,
      signal,
    });
    outgoing.on('error', (error) =>
      reject(
        signal.aborted && !request.signal.aborted
          ? new Error(`no answer within ${request.timeoutMs} ms`)
          : error,
      ),
    );
    outgoing.on('response', (answer) => {
      let read = 0;
      const done = () => {
        answer.destroy();
        const location = answer.headers.location;
        resolve({ status: answer.statusCode ?? 0, ...(location ? { location } : {}) });
      };
      answer.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) done();
      });
      answer.on('end', done);
      answer.on('error', (error) => reject(error));
    });
    outgoing.end(request.body);
  });
}
