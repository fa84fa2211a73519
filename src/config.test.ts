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

describe('FLAGPOLE_SECRET_KEY and the integrations', () => {
  it('takes a key of 32 bytes in hex or base64, and refuses others', () => {
    expect(loadConfig({}).secretKey).toBeUndefined();
    expect(loadConfig({ FLAGPOLE_SECRET_KEY: 'ab'.repeat(32) }).secretKey).toEqual(Buffer.alloc(32, 0xab));
    expect(loadConfig({ FLAGPOLE_SECRET_KEY: Buffer.alloc(32, 1).toString('base64') }).secretKey).toEqual(
      Buffer.alloc(32, 1),
    );
    for (const bad of ['short', 'ab'.repeat(31), 'zz'.repeat(32)]) {
      expect(() => loadConfig({ FLAGPOLE_SECRET_KEY: bad })).toThrow(
        /^FLAGPOLE_SECRET_KEY must be 32 random bytes/,
      );
    }
  });

  it('reads the delivery settings and the allowed hosts', () => {
    const config = loadConfig({
      INTEGRATION_ALLOWED_HOSTS: 'hooks.internal,10.0.0.0/8',
      INTEGRATION_ATTEMPTS: '5',
      INTEGRATION_TIMEOUT_MS: '1000',
      INTEGRATION_RETRY_DELAY_MS: '10',
    }).integrations;
    expect(config).toMatchObject({ attempts: 5, timeoutMs: 1000, retryDelayMs: 10 });
    expect([...config.allowed.hosts]).toEqual(['hooks.internal']);
    expect(() => loadConfig({ INTEGRATION_ATTEMPTS: '0' })).toThrow(/INTEGRATION_ATTEMPTS/);
    expect(() => loadConfig({ INTEGRATION_ALLOWED_HOSTS: 'a b' })).toThrow(/INTEGRATION_ALLOWED_HOSTS/);
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

describe('PASSWORD_HASH_COST', () => {
  it("is scrypt's 16384 unless set; a power of two from 1024 to 65536", () => {
    expect(loadConfig({}).passwordHashCost).toBe(16384);
    expect(loadConfig({ PASSWORD_HASH_COST: '1024' }).passwordHashCost).toBe(1024);
    for (const bad of ['512', '1000', '131072', 'cheap']) {
      expect(() => loadConfig({ PASSWORD_HASH_COST: bad })).toThrow(
        /^PASSWORD_HASH_COST must be a power of two from 1024 to 65536/,
      );
    }
  });
});
