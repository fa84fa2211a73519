import type { App } from './route.js';

/**
 * How long requests in flight at shutdown get to finish before their connections are cut: well
 * inside the grace period of `docker stop` (10 s) and of Kubernetes (30 s), so that what comes
 * after them (buffered SDK metrics written, the database closed) still happens before a SIGKILL.
 */
export const DRAIN_LIMIT_MS = 5000;

/**
 * On close, Fastify answers new requests 503, stops accepting connections, closes the idle ones
 * and waits for the others. A connection kept alive after the answer it was busy with would hold
 * that wait until its client or the keep-alive timeout (72 s) ends it: every answer sent while
 * closing says `Connection: close` and ends its connection, and a request still unfinished after
 * DRAIN_LIMIT_MS loses its connection.
 */
export function drainOnClose(app: App): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    setTimeout(() => app.server.closeAllConnections(), DRAIN_LIMIT_MS).unref();
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
