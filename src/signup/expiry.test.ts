import { describe, expect, it } from 'vitest';
import { cappedExpiry, isUsable, oneMonthAfter } from './expiry.js';

describe('oneMonthAfter()', () => {
  it('keeps the day and time of day', () => {
    expect(oneMonthAfter(new Date('2026-03-15T10:20:30.000Z')).toISOString()).toBe(
      '2026-04-15T10:20:30.000Z',
    );
    expect(oneMonthAfter(new Date('2026-12-31T23:00:00.000Z')).toISOString()).toBe(
      '2027-01-31T23:00:00.000Z',
    );
  });

  it("falls back to the next month's last day when it is shorter", () => {
    expect(oneMonthAfter(new Date('2026-01-31T08:00:00.000Z')).toISOString()).toBe(
      '2026-02-28T08:00:00.000Z',
    );
    expect(oneMonthAfter(new Date('2028-01-30T08:00:00.000Z')).toISOString()).toBe(
      '2028-02-29T08:00:00.000Z',
    );
    expect(oneMonthAfter(new Date('2026-03-31T00:00:00.000Z')).toISOString()).toBe(
      '2026-04-30T00:00:00.000Z',
    );
  });
});

describe('cappedExpiry()', () => {
  const now = new Date('2026-05-10T12:00:00.000Z');
  it('keeps an earlier (even past) expiry and cuts a later one to a month from now', () => {
    expect(cappedExpiry(new Date('2026-05-20T00:00:00.000Z'), now).toISOString()).toBe(
      '2026-05-20T00:00:00.000Z',
    );
    expect(cappedExpiry(new Date('2020-01-01T00:00:00.000Z'), now).toISOString()).toBe(
      '2020-01-01T00:00:00.000Z',
    );
    expect(cappedExpiry(new Date('2027-01-01T00:00:00.000Z'), now).toISOString()).toBe(
      '2026-06-10T12:00:00.000Z',
    );
  });
});

describe('isUsable()', () => {
  const now = new Date('2026-05-10T12:00:00.000Z');
  it('needs the flag on and the expiry ahead', () => {
    expect(isUsable({ enabled: true, expiresAt: new Date('2026-05-11T00:00:00.000Z') }, now)).toBe(true);
    expect(isUsable({ enabled: false, expiresAt: new Date('2026-05-11T00:00:00.000Z') }, now)).toBe(false);
    expect(isUsable({ enabled: true, expiresAt: now }, now)).toBe(false);
  });
});
