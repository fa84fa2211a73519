import fc from 'fast-check';
import type { JsonSchema, Operation, Parameter } from './openapi.js';
import type { SchemaArbitraries } from './schema-arbitraries.js';
import { FixturePick, type Pools, RawJson, toJsonText, toText } from './values.js';

/** Who a request claims to be: a credential of the fixture, by name, or a header sent as it is. */
export type Credential =
  | { kind: 'named'; name: CredentialName; bearer: boolean }
  | { kind: 'literal'; authorization?: string; cookie?: string }
  | { kind: 'none' };

/**
 * `audience`: the credential the path is meant for (admin token, client token, frontend token; a
 * frontend token for OpenFeature's paths).
 */
export type CredentialName =
  | 'audience'
  | 'admin'
  | 'adminUser'
  | 'editor'
  | 'viewer'
  | 'viewerSession'
  | 'client'
  | 'frontend'
  | 'expiredPat'
  | 'expiredToken';

export type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  /** The JSON text of `value` cut after `cut` characters (modulo its length). */
  | { kind: 'truncated'; value: unknown; cut: number }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] }
  | { kind: 'nested'; depth: number; open: '[' | '{"a":' }
  | { kind: 'large'; size: number };

/** A generated request, before the fixture's values are put in. */
export interface FuzzRequest {
  operation: Operation;
  method: string;
  /** Each path parameter's value: generated (encoded when sent) or a raw, already encoded segment. */
  path: Record<string, { value: unknown; raw: boolean }>;
  query: { name: string; value: unknown; raw: boolean }[];
  body: Body;
  contentType: string | null;
  credential: Credential;
}

/** A request as sent. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** Path segments that are not what a route expects: not UTF-8, NUL, dots, too long, beyond int4. */
const RAW_SEGMENTS = [
  '%00',
  'a%00b',
  '%FF',
  '%C0%AE',
  '%E0%80%80',
  '%ED%A0%80',
  '%G0',
  '%',
  '%25',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%5C',
  '%20',
  '%201',
  'caf%C3%A9',
  '%F0%9F%92%A9',
  '%EF%BF%BF',
  '2147483648',
  '-2147483649',
  '99999999999999999999',
  '9223372036854775808',
  '1e3',
  '0x10',
  '1.5',
  '-0',
  'NaN',
  'Infinity',
  '0',
  '-1',
  'does-not-exist',
  '__proto__',
  'constructor',
  "'",
  '~',
  'a'.repeat(5000),
  '%00'.repeat(20),
];

const RAW_QUERY_VALUES = [
  '',
  '%00',
  '%FF',
  '-1',
  '0',
  '1.5',
  'abc',
  '2147483648',
  '99999999999999999999',
  '9223372036854775808',
  '1e400',
  'NaN',
  'true',
  '%E2%80%AE',
  'x'.repeat(20_000),
];

const MALFORMED_JSON = [
  '{',
  '}',
  '{"a":}',
  '[1,]',
  '{"a":1,}',
  "{'a':1}",
  'nul',
  'NaN',
  '{"a":NaN}',
  'undefined',
  '\ufeff{}',
  '{}garbage',
  '{"a":"\\x00"}',
  '{"a":"\\uZZZZ"}',
  '"\\ud800"',
  '1',
  '"x"',
  'null',
  '[]',
  'true',
  '{"__proto__":{"isAdmin":true}}',
  '{"a":{"__proto__":{"isAdmin":true}}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a":1,"a":2}',
  ' ',
];

const CONTENT_TYPES = [
  null,
  '',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;',
  'application/jsonx',
  'application/vnd.api+json',
  'application/json; charset=latin1',
  '*/*',
  'text/json',
];

const GARBAGE_AUTHORIZATION = [
  '',
  'Bearer',
  'Bearer ',
  'garbage',
  `*:*.${'a'.repeat(56)}`,
  `user:${'b'.repeat(56)}`,
  'user:',
  '*:*.',
  `default:development.${'c'.repeat(56)}`,
  'Basic YWRtaW46dW5sZWFzaDRhbGw=',
  'x'.repeat(10_000),
  '*:*.zz',
  'Bearer Bearer x',
];

const GARBAGE_COOKIES = [
  'unleash-session=',
  'unleash-session=nope',
  `unleash-session=${'s'.repeat(5000)}`,
  'unleash-session=%00',
  'unleash-session=a; unleash-session=b',
  '=;;=',
];

const CREDENTIALS: CredentialName[] = [
  'admin',
  'adminUser',
  'editor',
  'viewer',
  'viewerSession',
  'client',
  'frontend',
  'expiredPat',
  'expiredToken',
];

const OTHER_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

type Fault = 'none' | 'body' | 'rawBody' | 'query' | 'path' | 'credential' | 'contentType' | 'method';

/** The request arbitrary of one operation: valid, or with one thing wrong. */
export function requestArbitrary(
  operation: Operation,
  schemas: SchemaArbitraries,
): fc.Arbitrary<FuzzRequest> {
  const faults: fc.WeightedArbitrary<Fault>[] = [
    { arbitrary: fc.constant('none'), weight: 15 },
    { arbitrary: fc.constant('credential'), weight: 12 },
    { arbitrary: fc.constant('method'), weight: 2 },
  ];
  if (operation.body) {
    faults.push(
      { arbitrary: fc.constant('body'), weight: 40 },
      { arbitrary: fc.constant('rawBody'), weight: 10 },
      { arbitrary: fc.constant('contentType'), weight: 4 },
    );
  } else {
    faults.push({ arbitrary: fc.constant('rawBody'), weight: 2 });
  }
  if (operation.query.length > 0) faults.push({ arbitrary: fc.constant('query'), weight: 20 });
  if (operation.pathParams.length > 0) faults.push({ arbitrary: fc.constant('path'), weight: 20 });
  return fc.oneof(...faults).chain((fault) =>
    fc.record({
      operation: fc.constant(operation),
      method: fault === 'method' ? fc.constantFrom(...OTHER_METHODS) : fc.constant(operation.method),
      path: pathArbitrary(operation.pathParams, schemas, fault === 'path'),
      query: queryArbitrary(operation.query, schemas, fault === 'query'),
      body: bodyArbitrary(operation.body, schemas, fault),
      contentType:
        fault === 'contentType' ? fc.constantFrom(...CONTENT_TYPES) : fc.constant('application/json'),
      credential: fault === 'credential' ? wrongCredential() : rightCredential(),
    }),
  );
}

function rightCredential(): fc.Arbitrary<Credential> {
  return fc.record({
    kind: fc.constant('named' as const),
    name: fc.constant('audience' as const),
    bearer: fc.boolean(),
  });
}

function wrongCredential(): fc.Arbitrary<Credential> {
  return fc.oneof(
    fc.record({
      kind: fc.constant('named' as const),
      name: fc.constantFrom(...CREDENTIALS),
      bearer: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('literal' as const),
      authorization: fc.constantFrom(...GARBAGE_AUTHORIZATION),
    }),
    fc.record({ kind: fc.constant('literal' as const), cookie: fc.constantFrom(...GARBAGE_COOKIES) }),
    fc.constant({ kind: 'none' as const }),
  );
}

function pathArbitrary(
  params: Parameter[],
  schemas: SchemaArbitraries,
  faulty: boolean,
): fc.Arbitrary<FuzzRequest['path']> {
  if (params.length === 0) return fc.constant({});
  const validOf = (p: Parameter) => schemas.valid(p.schema, p.name).map((value) => ({ value, raw: false }));
  const faultyOf = (p: Parameter) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((value) => ({ value, raw: true })), weight: 3 },
      { arbitrary: schemas.faulty(p.schema).map((value) => ({ value, raw: false })), weight: 1 },
    );
  const whichFaulty = faulty ? fc.nat(params.length - 1) : fc.constant(-1);
  return whichFaulty.chain((bad) =>
    fc.record(Object.fromEntries(params.map((p, i) => [p.name, i === bad ? faultyOf(p) : validOf(p)]))),
  );
}

function queryArbitrary(
  params: Parameter[],
  schemas: SchemaArbitraries,
  faulty: boolean,
): fc.Arbitrary<FuzzRequest['query']> {
  const entry = (p: Parameter) =>
    schemas.valid(p.schema, p.name).map((value) => [{ name: p.name, value, raw: false }]);
  const optional = (p: Parameter) => fc.oneof(entry(p), fc.constant([]));
  const valid = fc.tuple(...params.map(optional)).map((lists) => lists.flat());
  if (!faulty) return valid;
  const bad = fc.oneof(
    fc
      .tuple(fc.constantFrom(...params), fc.constantFrom(...RAW_QUERY_VALUES))
      .map(([p, value]) => [{ name: p.name, value, raw: true }]),
    fc
      .constantFrom(...params)
      .chain((p) =>
        schemas.faulty(p.schema).map((value) => [{ name: p.name, value: toQueryValue(value), raw: false }]),
      ),
    // The same key twice: an array where the schema wants one value.
    fc.constantFrom(...params).chain((p) => fc.tuple(entry(p), entry(p)).map(([a, b]) => [...a, ...b])),
    fc.constant([{ name: 'unknownParameter', value: 'x', raw: false }]),
  );
  return fc.tuple(valid, bad).map(([v, b]) => [...v.filter((e) => !b.some((x) => x.name === e.name)), ...b]);
}

/** A faulty value in a query is text: numbers written as JSON would write them. */
function toQueryValue(value: unknown): unknown {
  if (value instanceof RawJson || value instanceof FixturePick || typeof value === 'string') return value;
  return new RawJson(JSON.stringify(value) ?? '');
}

function bodyArbitrary(
  schema: JsonSchema | undefined,
  schemas: SchemaArbitraries,
  fault: Fault,
): fc.Arbitrary<Body> {
  if (fault === 'rawBody') return rawBody(schema, schemas);
  if (!schema) return fc.constant({ kind: 'none' as const });
  const value = fault === 'body' ? schemas.faulty(schema) : schemas.valid(schema);
  return value.map((v) => ({ kind: 'json' as const, value: v }));
}

function rawBody(schema: JsonSchema | undefined, schemas: SchemaArbitraries): fc.Arbitrary<Body> {
  const someValue = schema ? schemas.valid(schema) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    fc.constantFrom(...MALFORMED_JSON).map((text) => ({ kind: 'text' as const, text })),
    fc.tuple(someValue, fc.nat()).map(([value, cut]) => ({ kind: 'truncated' as const, value, cut })),
    fc
      .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom('[' as const, '{"a":' as const))
      .map(([depth, open]) => ({ kind: 'nested' as const, depth, open })),
    fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 12 })
      .map((tail) => ({ kind: 'bytes' as const, bytes: [...Buffer.from('{"name":"'), ...tail, 0x22, 0x7d] })),
    { arbitrary: fc.constant({ kind: 'large' as const, size: 1024 * 1024 + 10 }), weight: 1 },
    fc.constant({ kind: 'none' as const }),
  );
}

/** What credentials of the fixture a named credential stands for now. */
export interface Credentials {
  resolve(name: CredentialName, url: string): { authorization?: string; cookie?: string };
}

function payloadOf(body: Body, pools: Pools): string | Buffer | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json':
      return toJsonText(body.value, pools);
    case 'truncated': {
      const text = toJsonText(body.value, pools);
      return text.slice(0, body.cut % (text.length + 1));
    }
    case 'text':
      return body.text;
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'nested': {
      const close = body.open === '[' ? ']' : '}';
      return `${body.open.repeat(body.depth)}1${close.repeat(body.depth)}`;
    }
    case 'large':
      return `{"description":"${'x'.repeat(body.size)}"}`;
  }
}

/** Percent-encoding, with a lone surrogate (which has no UTF-8) sent as U+FFFD, as browsers do. */
function encode(text: string): string {
  return encodeURIComponent(
    text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );
}

/** The request as it goes on the wire, with the fixture's current values put in. */
export function toHttp(request: FuzzRequest, pools: Pools, credentials: Credentials): HttpRequest {
  let path = request.operation.path;
  for (const [name, { value, raw }] of Object.entries(request.path)) {
    const text = raw ? toText(value, pools) : encode(toText(value, pools));
    path = path.replace(`{${name}}`, text);
  }
  const query = request.query
    .map(({ name, value, raw }) => {
      const text = toText(value, pools);
      return `${encode(name)}=${raw ? text : encode(text)}`;
    })
    .join('&');
  const url = query ? `${path}?${query}` : path;
  const headers: Record<string, string> = {};
  const credential = request.credential;
  if (credential.kind === 'literal') {
    if (credential.authorization !== undefined) headers.authorization = credential.authorization;
    if (credential.cookie !== undefined) headers.cookie = credential.cookie;
  }
  if (credential.kind === 'named') {
    const { authorization, cookie } = credentials.resolve(credential.name, url);
    if (authorization !== undefined)
      headers.authorization = credential.bearer ? `Bearer ${authorization}` : authorization;
    if (cookie !== undefined) headers.cookie = cookie;
  }
  const payload = payloadOf(request.body, pools);
  if (request.contentType !== null && (payload !== undefined || request.operation.body)) {
    headers['content-type'] = request.contentType;
  }
  return { method: request.method, url, headers, payload };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters in all)`;
}

/** A request as a reader wants to see it: method, URL, headers and body, long parts clipped. */
export function describeHttp(request: HttpRequest): string {
  const lines = [`${request.method} ${clip(request.url, 300)}`];
  for (const [k, v] of Object.entries(request.headers)) lines.push(`${k}: ${clip(v, 200)}`);
  if (request.payload !== undefined) {
    const body =
      typeof request.payload === 'string'
        ? JSON.stringify(clip(request.payload, 2000))
        : `bytes ${request.payload.toString('hex')}`;
    lines.push(`body: ${body}`);
  }
  return lines.join('\n');
}
