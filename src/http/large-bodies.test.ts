import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startTestServer, type TestServer, type TestUser } from '../../test/server.js';
import { BODY_LIMIT, LARGE_BODY_LIMIT } from './body.js';

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
});
