import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type App, audienceOf } from './route.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this, compressing saves less than a packet and costs a trip to the thread pool. */
const SMALLEST = 1024;

// Brotli's default quality (11) takes seconds over a few megabytes; 4 compresses about as fast as
// gzip does and smaller.
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to send to a client whose Accept-Encoding is `header`: brotli, else gzip, else none.
 * A coding listed with `q=0` is refused.
 */
export function chooseEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (coding && !(q && Number(q.slice(2)) === 0)) accepted.add(coding);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

function isTextual(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^(application\/json|text\/)/.test(contentType);
}

/** The answer compressed when the client takes it and it is worth it; otherwise as it was. */
async function compress(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (!isTextual(reply.getHeader('content-type')) || reply.hasHeader('content-encoding')) return payload;
  // The same URL answers in different encodings: caches must keep them apart (beside any other Vary).
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  if (!encoding || Buffer.byteLength(payload) < SMALLEST) return payload;
  // In the thread pool: a list of thousands of flags takes tens of milliseconds to compress.
  const body = encoding === 'br' ? await brotli(payload, BROTLI_OPTIONS) : await gzip(payload);
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  return body;
}

/**
 * The admin API's and sign-in's answers compressed for browsers and scripts that accept it (a
 * project of 3,000 flags is 2.5 MB of JSON). Not the SDK paths: their bodies are made once per
 * revision and sent as they are to every SDK, and compressing each answer would cost more than the
 * answer. Declared before the routes, as the routes' last step before sending.
 */
export function registerCompression(app: App): void {
  app.addHook('onRoute', (route) => {
    if (!(audienceOf(route.url) === 'admin' || route.url.startsWith('/auth'))) return;
    route.onSend = [
      ...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []),
      compress,
    ];
  });
}
