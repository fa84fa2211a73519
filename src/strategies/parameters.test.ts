import { describe, expect, it } from 'vitest';
import { ValidationError } from '../http/errors.js';
import { normalizeParameters } from './parameters.js';

const defaults = { groupId: 'my-flag', stickiness: 'default' };

describe('normalizeParameters', () => {
  it('fills in the flexibleRollout defaults for missing or empty parameters', () => {
    expect(normalizeParameters('flexibleRollout', undefined, defaults)).toEqual({
      rollout: '100',
      stickiness: 'default',
      groupId: 'my-flag',
    });
    expect(
      normalizeParameters('flexibleRollout', { rollout: '', groupId: '', stickiness: '' }, defaults),
    ).toEqual({
      rollout: '100',
      stickiness: 'default',
      groupId: 'my-flag',
    });
    expect(
      normalizeParameters('flexibleRollout', {}, { groupId: 'g', stickiness: 'userId' }).stickiness,
    ).toBe('userId');
  });

  it('keeps what was sent, as strings', () => {
    expect(
      normalizeParameters(
        'flexibleRollout',
        { rollout: 25, stickiness: 'sessionId', groupId: 'shared', extra: true },
        defaults,
      ),
    ).toEqual({ rollout: '25', stickiness: 'sessionId', groupId: 'shared', extra: 'true' });
    expect(normalizeParameters('userWithId', { userIds: 'a,b', count: 3 }, defaults)).toEqual({
      userIds: 'a,b',
      count: '3',
    });
    expect(normalizeParameters('default', undefined, defaults)).toEqual({});
  });

  it('holds the rollout to a percentage from 0 to 100', () => {
    for (const rollout of ['0', '100', '50', '12.5', 33]) {
      expect(
        () => normalizeParameters('flexibleRollout', { rollout }, defaults),
        String(rollout),
      ).not.toThrow();
    }
    for (const rollout of ['101', '-1', 'half', '50%', 150, ' 5']) {
      expect(() => normalizeParameters('flexibleRollout', { rollout }, defaults), String(rollout)).toThrow(
        ValidationError,
      );
    }
    // other strategy types have no rollout rule
    expect(normalizeParameters('default', { rollout: 'half' }, defaults)).toEqual({ rollout: 'half' });
  });
});
