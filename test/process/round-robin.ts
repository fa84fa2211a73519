import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the test puts in front of the replicas, as any HTTP load balancer would be: each request
 * goes to the next replica in turn, whoever sent it (no sticky sessions).
 */
export interface RoundRobin {
  url: string;
  /** Which replica (index into the targets) answered each request so far, in order. */
  readonly sentTo: number[];
  close(): Promise<void>;
}

export async function startRoundRobin(targets: string[]): Promise<RoundRobin> {
  const agent = new http.Agent({ keepAlive: true });
  const sentTo: number[] = [];
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next;
    next = (next + 1) % targets.length;
    sentTo.push(index);
    const target = new URL(request.url!, targets[index]);
    const forward = http.request(
      target,
      { method: request.method, headers: request.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', (error) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`replica ${index}: ${error.message}`);
    });
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sentTo,
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
