import { describe, expect, it } from 'vitest';
import { LocalChanges } from './local-changes.js';

const stored = (revision: number, ...features: string[]) => ({ revision, scopes: ['features'], features });

describe("this process's own commits that gave features whole", () => {
  it('give each feature as the last of them wrote it, unless a later change touched it', () => {
    const local = new LocalChanges();
    local.add(5, {
      scopes: ['features'],
      features: ['a', 'b', 'c'],
      records: new Map([
        ['a', 'a@5'],
        ['b', 'b@5'],
        ['c', 'c@5'],
      ]),
    });
    local.add(7, { scopes: ['features'], features: ['c'], records: new Map([['c', 'c@7']]) });
    local.add(8, { scopes: ['features'], features: ['a'] });
    // 6 is another process's commit; 8 is this one's, but its writer did not give `a` whole.
    const records = local.recordsAmong([
      stored(5, 'a', 'b', 'c'),
      stored(6, 'b'),
      stored(7, 'c'),
      stored(8, 'a'),
    ]);
    expect([...records]).toEqual([['c', 'c@7']]);
  });

  it('are forgotten once the caches reached them', () => {
    const local = new LocalChanges();
    local.add(3, { scopes: ['features'], features: ['a'], records: new Map([['a', 'a@3']]) });
    expect([...local.recordsAmong([stored(3, 'a')])]).toEqual([['a', 'a@3']]);
    local.reached(3);
    expect([...local.recordsAmong([stored(3, 'a')])]).toEqual([]);
  });
});
