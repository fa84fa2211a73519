import { stateDocument } from '../../test/state-document.js';
import type { Scenario } from './types.js';

const FEATURES = 1000;

/**
 * E5 once each, timed: 1,000 features with strategies, segments and tags imported into projects
 * of their own (the other cases' flags stay as they are), the whole state exported, and the
 * export imported again over itself with keep=false (everything compared, nothing written).
 */
export const state: Scenario = async (ctx) => {
  const document = stateDocument(FEATURES, { prefix: 'bench-', firstSegmentId: 1000 });
  await ctx.timed(`E5 import of ${FEATURES} features (strategies, segments, tags)`, () =>
    ctx.call('POST', '/api/admin/state/import', document),
  );
  let exported: unknown;
  await ctx.timed('E5 export of the whole state', async () => {
    exported = await ctx.call('GET', '/api/admin/state/export');
  });
  await ctx.timed('E5 import of that export again, keep=false (nothing changes)', () =>
    ctx.call('POST', '/api/admin/state/import?keep=false', exported),
  );
  return [];
};
