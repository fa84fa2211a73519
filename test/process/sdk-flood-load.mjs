// The load of the memory-under-abuse test, in a process of its own so that making requests does
// not take turns from the process that measures the server. It floods every public SDK path with
// names never seen before and the largest bodies the schemas allow, from many loopback addresses
// (127.x.y.z all reach the server on Linux), as a public token used from many machines would.
// Usage: node sdk-flood-load.mjs <config as JSON>; writes one line of JSON: the answers counted.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

const { base, clientToken, frontendToken, seconds, concurrency, only } = JSON.parse(process.argv[2]);
const { hostname, port } = new URL(base);
const deadline = Date.now() + seconds * 1000;
const RAMP_MS = 1000;

let serial = 0;
const unique = (prefix) => `${prefix}-${process.pid}-${++serial}-${Math.random().toString(36).slice(2, 8)}`;
const long = (prefix, length) => prefix.padEnd(length, 'x');
const now = () => new Date().toISOString();

/** Names of one length, never used before (the serial), so a body's bytes can be patched in place. */
const NAME_LENGTH = 16;
const freshName = () =>
  `n${process.pid.toString(36).padStart(5, '0')}${(++serial).toString(36).padStart(10, '0')}`;

/**
 * A body made once as bytes, with a name at each place `@@` held; each request writes a name never
 * used before over those places, in a copy of its worker's (a worker waits for its answer before
 * its next request), so every name it carries is new while making it costs the load little:
 * replacing in the text and encoding it for every request took the load most of a core, which the
 * server on the same two cores then lacked.
 */
const template = (value) => {
  const parts = JSON.stringify(value).split('@@');
  const base = Buffer.from(parts.join('@'.repeat(NAME_LENGTH)));
  const places = [];
  for (let i = 0, at = 0; i < parts.length - 1; i++) {
    at += Buffer.byteLength(parts[i]);
    places.push(at);
    at += NAME_LENGTH;
  }
  const copies = new Map();
  return (worker) => {
    const body = copies.get(worker) ?? Buffer.from(base);
    copies.set(worker, body);
    const name = freshName();
    for (const at of places) body.write(name, at, 'latin1');
    return body;
  };
};

/** 50 strategy names of 100 characters: the most a registration may carry. */
const strategies = Array.from({ length: 50 }, (_, i) => long(`@@-s${i}`, 76));
/** 1,000 flags of names never seen, each with variants: the most one metrics report may carry. */
const toggles = Object.fromEntries(
  Array.from({ length: 1000 }, (_, i) => [
    long(`@@-f${i}`, 120),
    { yes: 5, no: 3, variants: { [`@@-a${i}`]: 2, [`@@-b${i}`]: 1 } },
  ]),
);
const start = now();
const register = {
  appName: '@@-app',
  instanceId: '@@-i',
  sdkVersion: 'unleash-client-node:6.1.0',
  strategies,
  started: start,
  interval: 10_000,
};
const metrics = {
  appName: '@@-app',
  instanceId: '@@-i',
  sdkVersion: 'unleash-client-node:6.1.0',
  bucket: { start, stop: start, toggles },
};
const context = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, long(`@@-c${i}`, 200)]));

/** Each request: method, path, token and body (made new for each request). */
const allKinds = [
  ['POST', '/api/client/register', clientToken, template(register)],
  [
    'POST',
    '/api/client/register',
    clientToken,
    template({ ...register, strategies: Array(1000).fill(long('s', 255)) }),
  ],
  ['POST', '/api/client/metrics', clientToken, template(metrics)],
  [
    'POST',
    '/api/client/metrics/bulk',
    clientToken,
    template({
      applications: Array.from({ length: 100 }, (_, i) => ({
        ...register,
        appName: `@@-app${i}`,
        environment: 'development',
      })),
      metrics: Array.from({ length: 1000 }, (_, i) => ({
        featureName: `@@-f${i}`,
        appName: `@@-app${i % 100}`,
        environment: 'development',
        timestamp: start,
        yes: 1,
        no: 1,
      })),
    }),
  ],
  ['POST', '/api/frontend/client/register', frontendToken, template(register)],
  ['POST', '/api/frontend/client/metrics', frontendToken, template(metrics)],
  ['POST', '/api/frontend', frontendToken, template({ context: { userId: '@@-u', properties: context } })],
  ['GET', () => `/api/frontend?userId=${unique('u')}&${unique('p')}=${unique('v')}`, frontendToken],
  [
    'GET',
    () =>
      `/api/client/features?project=${unique('p')}&project=default&namePrefix=${unique('n')}&tag=simple:${unique('t')}`,
    clientToken,
  ],
  ['GET', () => `/api/client/features?namePrefix=flood&x=${unique('q')}`, clientToken],
];
/** `only`: the indexes of the kinds to send (to find which one costs what); all by default. */
const kinds = only ? allKinds.filter((_, i) => only.includes(i)) : allKinds;

/**
 * A source address: 127.1.a.b for a from 0 to 255, b from 1 to 254. Each request opens its own
 * connection, as many machines would: kept-alive sockets would be memory the test does not mean.
 */
const addressOf = (n) => `127.1.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;

function send(kind, localAddress, worker) {
  const [method, path, token, body] = kind;
  const payload = body ? body(worker) : undefined;
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: hostname,
        port,
        method,
        path: typeof path === 'function' ? path() : path,
        agent: false,
        localAddress,
        headers: {
          authorization: token,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
        response.on('error', () => resolve('cut'));
      },
    );
    request.setTimeout(20_000, () => request.destroy(new Error('timeout')));
    request.on('error', (error) => resolve(error.message === 'timeout' ? 'timeout' : 'error'));
    request.end(payload);
  });
}

const counts = {};
let requests = 0;
async function worker(id) {
  // Workers join one after another over the first second, as clients do; all 24 at one instant
  // would be a burst of the largest bodies that no traffic makes, and the same one every run.
  await sleep((id * RAMP_MS) / concurrency);
  let n = id;
  while (Date.now() < deadline) {
    const kind = kinds[n % kinds.length];
    // A new address every few requests: the per-address limits alone would stop one address soon.
    const status = await send(kind, addressOf(Math.floor(n / 4)), id);
    const key = `${kind[0]} ${typeof kind[1] === 'string' ? kind[1] : kind[1]().split('?')[0]} ${status}`;
    counts[key] = (counts[key] ?? 0) + 1;
    requests++;
    n += concurrency;
  }
}

await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
process.stdout.write(`${JSON.stringify({ requests, counts })}\n`);
