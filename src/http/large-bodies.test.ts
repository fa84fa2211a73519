import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../test/server.js';
import { BODY_LIMIT, LARGE_BODY_LIMIT } from './body/parsers.js';

let server: TestServer;
let viewer: TestUser;
let editor: TestUser;
let port: number;

beforeAll(async () => {
  server = await startTestServer();
  viewer = await createUser(server, 3);
  editor = await createUser(server, 2);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as AddressInfo).port;
});
afterAll(() => server.close());

/** An import of `count` new features into `default`, about a kilobyte each. */
function importOf(count: number, prefix: string): string {
  const features = Array.from({ length: count }, (_, i) => ({
    name: `${prefix}-${i}`,
    description: 'x'.repeat(1000),
  }));
  return JSON.stringify({
    project: 'default',
    environment: 'development',
    data: { features, featureStrategies: [], tagTypes: [] },
  });
}

const post = (url: string, token: string, body: string) =>
  server.request('POST', url, { token, body, contentType: 'application/json' });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/**
 * A POST over the real port whose body is sent as `send` says: the answer may come before the
 * body is all sent (the server refuses it early), so errors writing after it are ignored.
 */
function postRaw(
  path: string,
  token: string,
  headers: Record<string, string>,
  send: (request: http.ClientRequest) => void,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { authorization: token, 'content-type': 'application/json', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(text) }),
        );
      },
    );
    let answered = false;
    request.on('response', () => (answered = true));
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    send(request);
  });
}

const VALIDATE = '/api/admin/features-batch/validate';

describe('a body over 1 MiB', () => {
  it('from a Viewer is refused before it is read: 413 on the import routes, 403 on the state import', async () => {
    const huge = importOf(20_000, 'huge');
    expect(huge.length).toBeGreaterThan(20_000_000);
    for (const url of [VALIDATE, '/api/admin/features-batch/import']) {
      // Once with a small body first: a route's schemas are compiled on its first request.
      expect((await post(url, viewer.pat, importOf(1, 'small'))).status).not.toBe(413);
      const started = Date.now();
      const res = await post(url, viewer.pat, huge);
      expect(Date.now() - started, url).toBeLessThan(300);
      expect(res.status, url).toBe(413);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'PayloadTooLargeError',
        message: `The request body is larger than the limit of ${BODY_LIMIT} bytes: only callers who may import send up to ${LARGE_BODY_LIMIT} bytes here.`,
      });
    }
    const started = Date.now();
    const state = await post('/api/admin/state/import', viewer.pat, huge);
    expect(Date.now() - started).toBeLessThan(300);
    expect(state.status).toBe(403);
    expect(state.body.name).toBe('NoAccessError');
  });

  it('from a Viewer, sent without a declared length, is refused once it passes 1 MiB', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const res = await postRaw(VALIDATE, viewer.pat, { 'transfer-encoding': 'chunked' }, (request) => {
      // 2 MiB of chunks, not a JSON document: the limit comes first.
      for (let i = 0; i < 32; i++) request.write(chunk);
      request.end();
    });
    expect(res.status).toBe(413);
    expect(res.body.name).toBe('PayloadTooLargeError');
  });

  it('from callers who may import is read: an Editor validates, an Admin imports', async () => {
    const large = importOf(1100, 'large');
    expect(large.length).toBeGreaterThan(BODY_LIMIT);
    const validated = await post(VALIDATE, editor.pat, large);
    expect(validated.status, validated.text).toBe(200);
    expect(validated.body.errors).toEqual([]);
    const imported = await post('/api/admin/features-batch/import', server.adminToken, large);
    expect(imported.status, imported.text).toBe(200);
    const feature = await server.request('GET', '/api/admin/projects/default/features/large-1099', {
      token: server.adminToken,
    });
    expect(feature.status).toBe(200);
  });

  it('is read one at a time: a second one meanwhile gets 503 with Retry-After, the first still works', async () => {
    const first = importOf(1100, 'first');
    const second = importOf(1100, 'second');
    let sendRest!: () => void;
    // The first body, half sent: its reading holds the turn until the rest comes.
    const firstAnswer = postRaw(
      VALIDATE,
      server.adminToken,
      { 'content-length': String(Buffer.byteLength(first)) },
      (request) => {
        request.write(first.slice(0, 600_000));
        sendRest = () => request.end(first.slice(600_000));
      },
    );
    // Time to reach the reading: a body sent before would take the turn itself.
    await new Promise((resolve) => setTimeout(resolve, 300));
    let refused: Answer | undefined;
    const deadline = Date.now() + 5000;
    while (!refused && Date.now() < deadline) {
      const res = await postRaw(
        VALIDATE,
        server.adminToken,
        { 'content-length': String(Buffer.byteLength(second)) },
        (request) => request.end(second),
      );
      if (res.status === 503) refused = res;
      else expect(res.status).toBe(200);
    }
    expect(refused?.headers['retry-after']).toBe('5');
    expect(refused?.body).toEqual({
      id: expect.any(String),
      name: 'ServiceUnavailableError',
      message: `Another large request body (over ${BODY_LIMIT} bytes) is being read: send this one again in a few seconds.`,
    });
    sendRest();
    expect((await firstAnswer).status).toBe(200);
    // The turn is given back.
    expect((await post(VALIDATE, server.adminToken, second)).status).toBe(200);
  });

  it('a large body whose client goes away gives its turn back', async () => {
    const body = importOf(1100, 'gone');
    const socket = await new Promise<net.Socket>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(s));
    });
    socket.on('error', () => {});
    socket.write(
      `POST ${VALIDATE} HTTP/1.1\r\nHost: x\r\nAuthorization: ${server.adminToken}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    socket.write(body.slice(0, 600_000));
    // Once the server reads it, a second large body is refused meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const deadline = Date.now() + 5000;
    let status = 0;
    while (status !== 503 && Date.now() < deadline)
      status = (await post(VALIDATE, server.adminToken, body)).status;
    expect(status).toBe(503);
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await post(VALIDATE, server.adminToken, body)).status).toBe(200);
  });

  it('a large body still unread when the request times out gives its turn back', async () => {
    const slow = await startTestServer({ REQUEST_TIMEOUT_MS: '500' });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const slowPort = (slow.app.server.address() as AddressInfo).port;
      const body = importOf(1100, 'slow');
      const socket = await new Promise<net.Socket>((resolve) => {
        const s = net.connect(slowPort, '127.0.0.1', () => resolve(s));
      });
      socket.on('error', () => {});
      const answer = new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
      socket.write(
        `POST ${VALIDATE} HTTP/1.1\r\nHost: x\r\nAuthorization: ${slow.adminToken}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      socket.write(body.slice(0, 600_000));
      expect(await answer).toMatch(/^HTTP\/1\.1 503 /);
      // The connection is still open, its body unfinished: another large body is read all the same.
      const res = await slow.request('POST', VALIDATE, {
        token: slow.adminToken,
        body,
        contentType: 'application/json',
      });
      expect(res.status, res.text).toBe(200);
      socket.destroy();
    } finally {
      await slow.close();
    }
  });
});
