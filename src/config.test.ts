import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('TRUST_PROXY', () => {
  it('is off unless set; true means one proxy; a number that many', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('takes a list of proxy addresses, CIDR ranges and range names', () => {
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1,fd00::/8, loopback, 172.16.0.0/255.240.0.0' })
        .trustProxy,
    ).toEqual(['10.0.0.0/8', '192.168.1.1', 'fd00::/8', 'loopback', '172.16.0.0/255.240.0.0']);
  });

  it('refuses anything else, naming the variable and the entry', () => {
    for (const [value, entry] of [
      ['yes', 'yes'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['10.0.0.1, 10.0.0.300', '10.0.0.300'],
      ['::1/129', '::1/129'],
      [',', ','],
    ] as const) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        new RegExp(`^TRUST_PROXY must be .*"${entry.replace(/[.*/]/g, '\\$&')}" is none of those$`),
      );
    }
  });
});

describe('UNLEASH_FRONTEND_API_ORIGINS', () => {
  it('is * unless set, as in Unleash; otherwise a comma-separated list of origins', () => {
    expect(loadConfig({}).frontendApiOrigins).toEqual(['*']);
    expect(loadConfig({ UNLEASH_FRONTEND_API_ORIGINS: ' ' }).frontendApiOrigins).toEqual(['*']);
    expect(
      loadConfig({ UNLEASH_FRONTEND_API_ORIGINS: 'https://app.example.com, http://localhost:3000' })
        .frontendApiOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:3000']);
  });

  it('refuses an entry that is no origin, naming it', () => {
    for (const entry of ['https://app.example.com/', 'app.example.com', 'https://*.example.com']) {
      expect(() => loadConfig({ UNLEASH_FRONTEND_API_ORIGINS: `*, ${entry}` })).toThrow(
        `UNLEASH_FRONTEND_API_ORIGINS must be`,
      );
      expect(() => loadConfig({ UNLEASH_FRONTEND_API_ORIGINS: entry })).toThrow(`"${entry}" is not one`);
    }
  });
});
