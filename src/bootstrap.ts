import type { AppContext } from './app-context.js';
import { migrate } from './db/migrate.js';
import { SYSTEM_ACTOR } from './http/identity.js';
import { importStateFile } from './state/file.js';
import { createInitialTokens } from './tokens/service.js';
import { ensureDefaultAdmin } from './users/service.js';

/**
 * Everything a database needs before the server may answer: schema, first admin, start-up tokens,
 * and the configuration declared in IMPORT_FILE.
 */
export async function prepareDatabase(ctx: AppContext): Promise<string[]> {
  const applied = await migrate(ctx.db);
  await ensureDefaultAdmin(ctx, SYSTEM_ACTOR);
  await createInitialTokens(ctx, SYSTEM_ACTOR);
  const { importFile, importDropBeforeImport, importKeepExisting } = ctx.config;
  if (importFile) {
    await importStateFile(ctx, importFile, { drop: importDropBeforeImport, keep: importKeepExisting });
  }
  return applied;
}
