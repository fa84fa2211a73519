import { describe, expect, it } from 'vitest';
import type { Evaluation } from '../client/evaluation/evaluate.js';
import { resolve } from './resolution.js';

const flag = { name: 'f', project: 'p', impressionData: true };
const on = (payload?: { type: string; value: string }): Evaluation => ({
  enabled: true,
  variant: { name: 'v', enabled: true, payload },
  outcome: 'split',
  written: {},
});

describe('an evaluation as OFREP answers it', () => {
  it('reads a payload as its type says, or answers PARSE_ERROR', () => {
    expect(resolve(flag, on({ type: 'number', value: '-3e2' }))).toMatchObject({
      value: -300,
      reason: 'SPLIT',
    });
    expect(resolve(flag, on({ type: 'json', value: '[1,2]' }))).toMatchObject({ value: [1, 2] });
    for (const payload of [
      { type: 'number', value: 'many' },
      { type: 'number', value: '' },
      { type: 'number', value: 'Infinity' },
      { type: 'json', value: '{nope' },
    ]) {
      expect(resolve(flag, on(payload))).toEqual({
        key: 'f',
        errorCode: 'PARSE_ERROR',
        errorDetails: `The payload of the variant "v" is not a valid ${payload.type}.`,
      });
    }
  });

  it('answers an on flag without a variant as true and its metadata as primitives', () => {
    const plain: Evaluation = {
      enabled: true,
      variant: { name: 'disabled', enabled: false },
      outcome: 'matched',
      written: {},
    };
    expect(resolve(flag, plain)).toEqual({
      key: 'f',
      value: true,
      variant: 'on',
      reason: 'TARGETING_MATCH',
      metadata: { featureEnabled: true, variantEnabled: false, project: 'p', impressionData: true },
    });
  });
});
