import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where Flagpole may send requests of its own (integrations; OpenID Connect discovery). A URL
 * anyone with the permission can set is a way into the network Flagpole stands in (SSRF), so a
 * target must be a public address unless the operator listed it: its host by name, or its address
 * in a listed range. The check runs when the URL is saved, and again before each request, after
 * the name is resolved, and the request then connects to the address that was checked.
 */
export interface OutboundRules {
  /** Host names (lower case) let through whatever they resolve to. */
  hosts: ReadonlySet<string>;
  /** Addresses and ranges let through although they are not public. */
  ranges: BlockList;
  /** The list as written, for messages. */
  written: readonly string[];
}

/** A target refused; the message says why and how to allow it. */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})?(\.[a-z0-9_]([a-z0-9_-]{0,62})?)*\.?$/;

/** INTEGRATION_ALLOWED_HOSTS: host names, addresses and CIDR ranges, comma-separated. */
export function parseOutboundRules(value: string | undefined, variable: string): OutboundRules {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  const written: string[] = [];
  for (const raw of (value ?? '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    written.push(entry);
    const [address = '', prefix, ...rest] = entry.replace(/[[\]]/g, '').split('/');
    const family = isIP(address);
    if (family !== 0 && rest.length === 0) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) {
        ranges.addAddress(address, type);
        continue;
      }
      const bits = Number(prefix);
      if (/^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128)) {
        ranges.addSubnet(address, bits, type);
        continue;
      }
    } else if (prefix === undefined && HOSTNAME.test(entry)) {
      hosts.add(entry.replace(/\.$/, ''));
      continue;
    }
    throw new Error(
      `${variable} must list host names, addresses and CIDR ranges (10.0.0.0/8, fd00::/8), ` +
        `comma-separated; "${raw.trim()}" is none of those`,
    );
  }
  return { hosts, ranges, written };
}

// Address ranges that are not the public internet, each with what it is.
const SPECIAL: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'private (shared address space)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved'],
  ['192.0.2.0', 24, 'ipv4', 'reserved for documentation'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'reserved for benchmarks'],
  ['198.51.100.0', 24, 'ipv4', 'reserved for documentation'],
  ['203.0.113.0', 24, 'ipv4', 'reserved for documentation'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['fc00::', 7, 'ipv6', 'private (unique local)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
  ['2001:db8::', 32, 'ipv6', 'reserved for documentation'],
];

const SPECIAL_LISTS = SPECIAL.map(([address, bits, type, what]) => {
  const list = new BlockList();
  list.addSubnet(address, bits, type);
  return { list, type, what };
});

/** The 16 bytes of an IPv6 address (which isIP accepted). */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((g) => [g >> 8, g & 255]);
}

/** An IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64), or undefined. */
function embeddedIpv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const mapped = zeros(0, 10) && bytes[10] === 255 && bytes[11] === 255;
  const compatible = zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1);
  const nat64 = bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12);
  return mapped || compatible || nat64 ? bytes.slice(12).join('.') : undefined;
}

/** What kind of non-public address this is (loopback, private…), or null for a public one. */
export function addressProblem(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return addressProblem(inner);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const hit = SPECIAL_LISTS.find((s) => s.type === type && s.list.check(address, type));
  return hit ? hit.what : null;
}

function allowedAddress(address: string, rules: OutboundRules): boolean {
  const family = isIP(address);
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined && rules.ranges.check(inner, 'ipv4')) return true;
  }
  return rules.ranges.check(address, family === 4 ? 'ipv4' : 'ipv6') || addressProblem(address) === null;
}

function refuse(host: string, why: string, rules: OutboundRules): TargetRefusedError {
  const listed = rules.written.length ? ` (it lists: ${rules.written.join(', ')})` : '';
  return new TargetRefusedError(
    `${why}. Flagpole sends requests only to public addresses, unless the operator lists the host ` +
      `"${host}" or its address in INTEGRATION_ALLOWED_HOSTS${listed}.`,
  );
}

/** An http(s) URL, parsed, or a refusal saying what is wrong with it. */
export function parseTargetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefusedError(`"${text}" is not a URL: send an absolute http(s) URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetRefusedError(`Only http and https URLs can be targets (got "${url.protocol}").`);
  }
  return url;
}

/**
 * The addresses a request to `url` may connect to, once the name is resolved; a TargetRefusedError
 * when the host is not allowed. Every address a name resolves to must be allowed: a name that also
 * points inside is refused whole.
 */
export async function resolveTarget(
  url: URL,
  rules: OutboundRules,
  resolve: Resolver,
): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(host);
  if (family !== 0) {
    if (!allowedAddress(host, rules)) {
      throw refuse(host, `The address ${host} is ${addressProblem(host)}`, rules);
    }
    return [{ address: host, family: family as 4 | 6 }];
  }
  const name = host.replace(/\.$/, '');
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(name);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'an error';
    throw new TargetRefusedError(`The host name "${name}" does not resolve (${code}).`);
  }
  if (addresses.length === 0) throw new TargetRefusedError(`The host name "${name}" does not resolve.`);
  if (rules.hosts.has(name)) return addresses;
  const inside = addresses.find((a) => !allowedAddress(a.address, rules));
  if (inside) {
    throw refuse(
      name,
      `The host "${name}" resolves to ${inside.address}, which is ${addressProblem(inside.address)}`,
      rules,
    );
  }
  return addresses;
}

/** The system's resolver, every address of a name. */
export async function resolveName(hostname: string): Promise<ResolvedAddress[]> {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** A lookup that answers the addresses already checked, so a name cannot resolve elsewhere now. */
export function pinned(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}
