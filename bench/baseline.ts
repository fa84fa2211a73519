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
for (const r of routes) {
  const payload = Buffer.from(r.body);
  app.route({
    method: r.method,
    url: r.url,
    handler: async (_request, reply) =>
      reply.code(r.status).header('content-type', r.contentType).send(payload),
  });
}
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
