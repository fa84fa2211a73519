import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, type FlagSet } from './evaluate.js';
import type { ClientFeature, Context, Segment } from './types.js';

// The official cases every Unleash SDK must pass, run against our evaluation (used by the
// frontend API), so a flag evaluates here exactly as in the SDKs.
const require = createRequire(import.meta.url);
const folder = path.join(
  path.dirname(require.resolve('@unleash/client-specification/package.json')),
  'specifications',
);
const files: string[] = JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8'));

interface DeltaEvent {
  type: string;
  features?: ClientFeature[];
  segments?: Segment[];
  feature?: ClientFeature;
  featureName?: string;
  segment?: Segment;
  segmentId?: number;
}

interface Spec {
  name: string;
  state: { features?: ClientFeature[]; segments?: Segment[]; events?: DeltaEvent[] };
  tests?: { description: string; context: Context; toggleName: string; expectedResult: boolean }[];
  variantTests?: {
    description: string;
    context: Context;
    toggleName: string;
    expectedResult: Record<string, unknown>;
  }[];
}

/** The flags of a spec's state; delta-API states are a list of events to apply in order. */
function flagSetOf(state: Spec['state']): FlagSet {
  const features = new Map<string, ClientFeature>();
  const segments = new Map<number, Segment>();
  for (const f of state.features ?? []) features.set(f.name, f);
  for (const s of state.segments ?? []) segments.set(s.id, s);
  for (const event of state.events ?? []) {
    if (event.type === 'hydration') {
      features.clear();
      segments.clear();
      for (const f of event.features ?? []) features.set(f.name, f);
      for (const s of event.segments ?? []) segments.set(s.id, s);
    } else if (event.type === 'feature-updated' && event.feature)
      features.set(event.feature.name, event.feature);
    else if (event.type === 'feature-removed' && event.featureName) features.delete(event.featureName);
    else if (event.type === 'segment-updated' && event.segment) segments.set(event.segment.id, event.segment);
    else if (event.type === 'segment-removed' && event.segmentId !== undefined)
      segments.delete(event.segmentId);
  }
  return { feature: (name) => features.get(name), segment: (id) => segments.get(id) };
}

function run(flags: FlagSet, name: string, context: Context) {
  const feature = flags.feature(name);
  return feature ? evaluate(feature, context, flags) : undefined;
}

for (const file of files) {
  const spec: Spec = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
  const flags = flagSetOf(spec.state);
  describe(spec.name, () => {
    for (const t of spec.tests ?? []) {
      it(t.description, () => {
        expect(run(flags, t.toggleName, t.context)?.enabled ?? false).toBe(t.expectedResult);
      });
    }
    for (const t of spec.variantTests ?? []) {
      it(`variant: ${t.description}`, () => {
        const result = run(flags, t.toggleName, t.context);
        const variant = result?.variant ?? { name: 'disabled', enabled: false };
        const actual: Record<string, unknown> = { name: variant.name, enabled: variant.enabled };
        if (variant.payload) actual.payload = variant.payload;
        if ('feature_enabled' in t.expectedResult) actual.feature_enabled = result?.enabled ?? false;
        if ('featureEnabled' in t.expectedResult) actual.featureEnabled = result?.enabled ?? false;
        expect(actual).toEqual(t.expectedResult);
      });
    }
  });
}

describe('murmur3', () => {
  it('matches the reference values of MurmurHash3 x86 32-bit', async () => {
    const { murmur3 } = await import('./murmur3.js');
    expect(murmur3('', 0)).toBe(0);
    expect(murmur3('', 1)).toBe(0x514e28b7);
    expect(murmur3('hello', 0)).toBe(0x248bfa47);
    expect(murmur3('Hello, world!', 1234)).toBe(0xfaf6cdb3);
    expect(murmur3('The quick brown fox jumps over the lazy dog', 0)).toBe(0x2e4ff723);
  });

  it('hashes a prefix once and then any suffix as the whole key', async () => {
    const { murmur3, murmur3WithPrefix } = await import('./murmur3.js');
    const words = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'feature-7:', 'grüße:', 'u1', 'user-123456'];
    for (const prefix of words) {
      const hash = murmur3WithPrefix(prefix, 86028157);
      for (const suffix of words) expect(hash(suffix)).toBe(murmur3(prefix + suffix, 86028157));
    }
  });
});
