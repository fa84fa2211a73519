// The yardstick: a bare Fastify server answering each benchmarked path with the very bytes
// Flagpole answered, so a ratio measures what Flagpole adds on top of HTTP and JSON.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  status: number;
  contentType: string;
  body: string;
}

const routes: Route[] = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
const app = Fastify({ logger: false });
// Fastify routes by path alone: cases that differ in their query share a route, which answers
// each URL (path and query) with its own bytes.
const byPath = new Map<string, Map<string, { route: Route; payload: Buffer }>>();
for (const r of routes) {
  const key = `${r.method} ${r.url.split('?')[0]}`;
  if (!byPath.has(key)) byPath.set(key, new Map());
  byPath.get(key)!.set(r.url, { route: r, payload: Buffer.from(r.body) });
}
for (const [key, answers] of byPath) {
  const [method, url] = key.split(' ') as [Route['method'], string];
  app.route({
    method,
    url,
    handler: async (request, reply) => {
      const answer = answers.get(request.url);
      if (!answer) return reply.code(404).send();
      return reply
        .code(answer.route.status)
        .header('content-type', answer.route.contentType)
        .send(answer.payload);
    },
  });
}
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
