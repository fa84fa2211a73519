import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/server.js';

let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as net.AddressInfo).port;
});
afterAll(() => server.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Sends `request` as it is over a new connection and reads the answer until the server closes it. */
function sendRaw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // Left as text: the assertion shows it.
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: parsed });
    });
    socket.end(request);
  });
}

const contractBody = (name: string) => ({
  id: expect.stringMatching(/^[0-9a-f-]{36}$/),
  name,
  message: expect.any(String),
});

describe('requests the HTTP parser refuses, before any route', () => {
  it('a request line longer than the header limit: 431 with the error body of the contract', async () => {
    const res = await sendRaw(`GET /api/admin/features?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(contractBody('RequestHeadersTooLargeError'));
    expect((res.body as { message: string }).message).toContain('16384 bytes');
  });

  it('headers larger than the limit: the same', async () => {
    const res = await sendRaw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual(contractBody('RequestHeadersTooLargeError'));
  });

  it('a request that is not HTTP: 400 ValidationError with the error body', async () => {
    const res = await sendRaw('HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(contractBody('ValidationError'));
  });

  it('a header name that is not a token: the same', async () => {
    const res = await sendRaw('GET /health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(contractBody('ValidationError'));
  });

  it('an HTTP/1.1 request without a Host header: the same', async () => {
    const res = await sendRaw('GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(contractBody('ValidationError'));
    expect((res.body as { message: string }).message).toContain('Host');
  });

  it('a well-formed request on the same port is answered as usual', async () => {
    const res = await sendRaw('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
  });
});
