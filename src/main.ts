import { buildApp } from './app.js';
import { createContext } from './app-context.js';
import { prepareDatabase } from './bootstrap.js';
import { loadConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { DirectoryLockedError } from './db/lock-file.js';
import { createLogger } from './log.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  let db: Database;
  try {
    db = await openDatabase(config, log);
  } catch (error) {
    if (error instanceof DirectoryLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const ctx = createContext(config, db, log);
  await prepareDatabase(ctx);
  const app = await buildApp(ctx);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      await app.close();
    } finally {
      await db.close();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  log.info(
    { database: db.kind === 'embedded' ? config.dataDir : 'postgres' },
    `Flagpole is ready on http://localhost:${config.port}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
