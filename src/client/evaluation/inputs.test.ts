import { describe, expect, it } from 'vitest';
import { keyOf, ruleInputs, variantInputs } from './inputs.js';

const rollout = ruleInputs({ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default' } });
const variants = variantInputs([{ name: 'a', weight: 1 }], undefined);

describe('what of a context an evaluation reads', () => {
  it('is the id a default rollout hashes: the user, else the session, else chance', () => {
    expect(keyOf(rollout, { userId: 'u', sessionId: '1' })).toBe(
      keyOf(rollout, { userId: 'u', sessionId: '2' }),
    );
    expect(keyOf(rollout, { sessionId: '1' })).not.toBe(keyOf(rollout, { sessionId: '2' }));
    expect(keyOf(rollout, { userId: '', sessionId: '1' })).toBe(keyOf(rollout, { sessionId: '1' }));
    expect(keyOf(rollout, {})).toBeUndefined();
  });

  it('is the id default variants hash: user, session or address, else chance', () => {
    expect(keyOf(variants, { remoteAddress: '10.0.0.1', sessionId: 's' })).toBe(
      keyOf(variants, { sessionId: 's' }),
    );
    expect(keyOf(variants, { remoteAddress: '10.0.0.1' })).not.toBe(
      keyOf(variants, { remoteAddress: '10.0.0.2' }),
    );
    expect(keyOf(variants, {})).toBeUndefined();
  });

  it('is chance itself for a random rollout, and the field for a custom stickiness', () => {
    expect(
      keyOf(ruleInputs({ name: 'gradualRolloutRandom', parameters: { percentage: '5' } }), {}),
    ).toBeUndefined();
    const custom = ruleInputs({ name: 'flexibleRollout', parameters: { stickiness: 'tenant' } });
    expect(keyOf(custom, { properties: { tenant: 'a' } })).not.toBe(
      keyOf(custom, { properties: { tenant: 'b' } }),
    );
  });
});
