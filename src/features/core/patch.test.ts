import { describe, expect, it } from 'vitest';
import { applyFeaturePatch, assertNoVariantPaths, type FeatureDocument } from './patch.js';

const doc: FeatureDocument = {
  name: 'f',
  description: 'd',
  type: 'release',
  project: 'default',
  stale: false,
  impressionData: false,
  archived: false,
  archivedAt: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  lastSeenAt: null,
};

describe('applyFeaturePatch', () => {
  it('applies operations in order; the last one on a path wins and add replaces', () => {
    expect(
      applyFeaturePatch(doc, [
        { op: 'replace', path: '/type', value: 'experiment' },
        { op: 'replace', path: '/type', value: 'kill-switch' },
        { op: 'add', path: '/stale', value: true },
      ]),
    ).toEqual({ description: 'd', type: 'kill-switch', stale: true, impressionData: false, archived: false });
  });

  it('gives removed members their defaults and ignores unknown and read-only members', () => {
    expect(
      applyFeaturePatch({ ...doc, type: 'experiment', stale: true }, [
        { op: 'remove', path: '/description' },
        { op: 'remove', path: '/type' },
        { op: 'remove', path: '/stale' },
        { op: 'add', path: '/color', value: 'red' },
        { op: 'replace', path: '/name', value: 'other' },
        { op: 'replace', path: '/project', value: 'elsewhere' },
      ]),
    ).toEqual({ description: null, type: 'release', stale: false, impressionData: false, archived: false });
  });

  it('supports copy, move and a passing test', () => {
    expect(
      applyFeaturePatch(doc, [
        { op: 'test', path: '/description', value: 'd' },
        { op: 'copy', from: '/name', path: '/description' },
        { op: 'move', from: '/createdAt', path: '/type' },
      ]),
    ).toMatchObject({ description: 'f', type: '2024-01-01T00:00:00.000Z' });
  });

  it.each([
    [[{ op: 'test', path: '/description', value: 'other' }], /test failed/],
    [[{ op: 'replace', path: '/nope/deeper', value: 1 }], /does not exist/],
    [[{ op: 'remove', path: '/nope' }], /does not exist/],
    [[{ op: 'replace', path: 'description', value: 'x' }], /JSON pointer/],
    [[{ op: 'copy', path: '/description' }], /from/],
    [[{ op: 'replace', path: '/stale', value: 'yes' }], /stale/],
    [[{ op: 'replace', path: '/impressionData', value: 1 }], /impressionData/],
    [[{ op: 'replace', path: '/archived', value: null }], /archived/],
    [[{ op: 'replace', path: '/description', value: 5 }], /description/],
    [[{ op: 'replace', path: '/description', value: 'x'.repeat(1001) }], /description/],
    [[{ op: 'replace', path: '/type', value: 7 }], /type/],
    [[{ op: 'replace', path: '/type', value: '' }], /type/],
    [[{ op: 'replace', path: '', value: 'not an object' }], /object/],
  ])('refuses %j with a ValidationError', (ops, message) => {
    expect(() => applyFeaturePatch(doc, ops as never)).toThrow(message);
    try {
      applyFeaturePatch(doc, ops as never);
    } catch (error) {
      expect((error as { status: number }).status).toBe(400);
    }
  });

  it('never changes the document it was given', () => {
    const copy = structuredClone(doc);
    applyFeaturePatch(doc, [{ op: 'replace', path: '/description', value: 'new' }]);
    expect(doc).toEqual(copy);
  });
});

describe('assertNoVariantPaths', () => {
  it('refuses any operation whose path contains /variants with a 403', () => {
    expect(() => assertNoVariantPaths([{ op: 'replace', path: '/description', value: 'x' }])).not.toThrow();
    for (const path of ['/variants', '/variants/0', '/environments/0/variants/1/weight']) {
      try {
        assertNoVariantPaths([
          { op: 'replace', path: '/description', value: 'x' },
          { op: 'add', path, value: {} },
        ]);
        expect.unreachable(path);
      } catch (error) {
        expect((error as { status: number }).status, path).toBe(403);
      }
    }
  });
});
