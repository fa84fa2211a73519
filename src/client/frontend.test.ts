import { describe, expect, it } from 'vitest';
import { contextFrom } from './frontend.js';

describe('contextFrom()', () => {
  it('puts the standard fields at the top and everything else in properties', () => {
    const context = contextFrom(
      {
        userId: '42',
        sessionId: 's1',
        remoteAddress: '10.1.2.3',
        appName: 'web',
        environment: 'prod',
        'properties[plan]': 'gold',
        properties: { region: 'eu' },
        currentTime: '2030-01-01T00:00:00Z',
        custom: 'x',
      },
      '127.0.0.1',
    );
    expect(context).toEqual({
      userId: '42',
      sessionId: 's1',
      remoteAddress: '10.1.2.3',
      appName: 'web',
      environment: 'prod',
      properties: { plan: 'gold', region: 'eu', currentTime: '2030-01-01T00:00:00Z', custom: 'x' },
    });
  });

  it('fills a missing session id with a random one and a missing address with the caller’s', () => {
    const a = contextFrom({}, '192.0.2.7');
    const b = contextFrom({}, '192.0.2.7');
    expect(a.remoteAddress).toBe('192.0.2.7');
    expect(a.sessionId).toMatch(/^\d+$/);
    expect(a.sessionId === b.sessionId && a.sessionId === contextFrom({}, 'x').sessionId).toBe(false);
  });

  it('takes the first of repeated query values and ignores nested objects in other fields', () => {
    expect(contextFrom({ userId: ['1', '2'], other: { a: 1 } }, 'ip')).toMatchObject({
      userId: '1',
      properties: {},
    });
  });
});
