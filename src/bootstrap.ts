import type { AppContext } from './app-context.js';
import { DEFAULT_ADMIN_PASSWORD } from './config.js';
import { migrate } from './db/migrate.js';
import { SYSTEM_ACTOR } from './http/identity.js';
import { ensureInstanceId } from './settings/service.js';
import { importStateFile } from './state/file.js';
import { createInitialTokens } from './tokens/startup.js';
import { ensureDefaultAdmin, signsInWith } from './users/service.js';

/**
 * Everything a database needs before the server may answer: schema, first admin, start-up tokens,
 * and the configuration declared in IMPORT_FILE.
 */
export async function prepareDatabase(ctx: AppContext): Promise<string[]> {
  const applied = await migrate(ctx.db);
  await ensureInstanceId(ctx.db);
  await ensureDefaultAdmin(ctx, SYSTEM_ACTOR);
  await createInitialTokens(ctx, SYSTEM_ACTOR);
  const { importFile, importDropBeforeImport, importKeepExisting } = ctx.config;
  if (importFile) {
    await importStateFile(ctx, importFile, { drop: importDropBeforeImport, keep: importKeepExisting });
  }
  return applied;
}

/**
 * Logged at every start while the first admin still signs in with the password everyone knows:
 * created silently on a first start, it would otherwise stay an open door nobody is told about.
 */
export async function warnAboutDefaultPassword(ctx: AppContext): Promise<void> {
  const { username } = ctx.config.defaultAdmin;
  if (await signsInWith(ctx.db, username, DEFAULT_ADMIN_PASSWORD)) {
    ctx.log.warn(
      `The user "${username}" still has the default password "${DEFAULT_ADMIN_PASSWORD}": anyone who tries it is an administrator. Sign in and change it.`,
    );
  }
}
