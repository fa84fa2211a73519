import http from 'node:http';
import https from 'node:https';
import { type OutboundRules, parseTargetUrl, pinned, resolveName, resolveTarget } from './targets.js';

/** Discovery documents, key sets, token answers and Prometheus answers are small; more is not an answer. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** What `outboundFetch` takes of a fetch's options: what openid-client and Flagpole's callers pass. */
export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | null;
}

export type OutboundFetch = (url: string, init: OutboundInit) => Promise<Response>;

function bodyOf(body: unknown): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new TypeError('a streamed request body cannot be sent');
}

/**
 * A fetch for Flagpole's own requests that read an answer (an OpenID provider's discovery, keys and
 * tokens; an external Prometheus), under the rule for them: the host must be a public address
 * unless INTEGRATION_ALLOWED_HOSTS lists it, checked before every request after the name is
 * resolved, and the connection goes to the address checked. Redirects are not followed; answers
 * are read whole, up to a bound.
 */
export function outboundFetch(rules: OutboundRules): OutboundFetch {
  return async (text, options) => {
    const url = parseTargetUrl(text);
    const addresses = await resolveTarget(url, rules, resolveName);
    const body = bodyOf(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (
      options.body instanceof URLSearchParams &&
      !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')
    ) {
      headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    }
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      // A fresh connection each time (no agent): a pooled one could lead to an address checked before.
      const outgoing = transport.request(url, {
        method: options.method,
        headers,
        lookup: pinned(addresses),
        agent: false,
        signal: options.signal ?? undefined,
      });
      outgoing.on('error', reject);
      outgoing.on('response', (answer) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            answer.destroy();
            reject(new TypeError(`the answer of ${url.origin} is larger than ${MAX_ANSWER_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        answer.on('error', reject);
        answer.on('end', () => {
          const status = answer.statusCode ?? 0;
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
              responseHeaders.append(name, v);
            }
          }
          const noBody = status === 204 || status === 205 || status === 304;
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
      });
      outgoing.end(body);
    });
  };
}
