import { describe, expect, it } from 'vitest';
import {
  addressProblem,
  parseOutboundRules,
  parseTargetUrl,
  type Resolver,
  resolveTarget,
} from './targets.js';

const none = parseOutboundRules(undefined, 'X');
const resolver =
  (table: Record<string, string[]>): Resolver =>
  async (name) => {
    const found = table[name];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('addressProblem', () => {
  it('names what is not a public address, IPv4-in-IPv6 included', () => {
    for (const [address, what] of [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['100.64.0.1', 'private (shared address space)'],
      ['169.254.169.254', 'link-local'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.251', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['fd12:3456::1', 'private (unique local)'],
      ['fe80::1', 'link-local'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:a00:1', 'private'],
      ['64:ff9b::a9fe:a9fe', 'link-local'],
    ]) {
      expect(addressProblem(address!), address).toBe(what);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1', '::ffff:8.8.8.8']) {
      expect(addressProblem(address), address).toBeNull();
    }
  });
});

describe('parseOutboundRules', () => {
  it('takes names, addresses and CIDR ranges, and refuses anything else naming the variable', () => {
    const rules = parseOutboundRules(
      ' Hooks.Internal , 10.0.0.0/8, ::1, [fd00::]/8 ',
      'INTEGRATION_ALLOWED_HOSTS',
    );
    expect([...rules.hosts]).toEqual(['hooks.internal']);
    expect(rules.ranges.check('10.9.9.9', 'ipv4')).toBe(true);
    expect(rules.ranges.check('::1', 'ipv6')).toBe(true);
    expect(rules.ranges.check('fd00::5', 'ipv6')).toBe(true);
    for (const bad of ['10.0.0.0/33', 'a b', 'http://x', '::1/129', 'host/8']) {
      expect(() => parseOutboundRules(bad, 'INTEGRATION_ALLOWED_HOSTS')).toThrow(
        /^INTEGRATION_ALLOWED_HOSTS must/,
      );
    }
  });
});

describe('resolveTarget', () => {
  it('refuses a name whose addresses include one inside, and lets listed names and ranges through', async () => {
    const dns = resolver({
      'hooks.example': ['93.184.216.34'],
      mixed: ['93.184.216.34', '10.0.0.5'],
      inside: ['10.0.0.5'],
    });
    await expect(resolveTarget(new URL('https://hooks.example/x'), none, dns)).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    await expect(resolveTarget(new URL('http://mixed/'), none, dns)).rejects.toThrow(
      /resolves to 10\.0\.0\.5, which is private/,
    );
    await expect(resolveTarget(new URL('http://nowhere/'), none, dns)).rejects.toThrow(
      /does not resolve \(ENOTFOUND\)/,
    );
    const byName = parseOutboundRules('inside', 'X');
    await expect(resolveTarget(new URL('http://inside/'), byName, dns)).resolves.toHaveLength(1);
    const byRange = parseOutboundRules('10.0.0.0/24', 'X');
    await expect(resolveTarget(new URL('http://inside/'), byRange, dns)).resolves.toHaveLength(1);
    await expect(resolveTarget(new URL('http://[::ffff:10.0.0.7]/'), byRange, dns)).resolves.toHaveLength(1);
    await expect(resolveTarget(new URL('http://[::1]/'), byRange, dns)).rejects.toThrow(/::1 is loopback/);
  });

  it('parses only absolute http(s) URLs', () => {
    expect(parseTargetUrl('https://a.example/b').host).toBe('a.example');
    expect(() => parseTargetUrl('file:///etc/passwd')).toThrow(/Only http and https/);
    expect(() => parseTargetUrl('/relative')).toThrow(/not a URL/);
  });
});
