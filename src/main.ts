import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { DirectoryLockedError } from './db/lock-file.js';
import { MigrationError } from './db/migrate.js';
import { createLogger } from './log.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const started = Date.now();
  const phases: Record<string, number> = {};
  let last = started;
  const phase = (name: string) => {
    phases[name] = Date.now() - last;
    last = Date.now();
  };
  // Opening the embedded database takes a few hundred milliseconds, partly waiting: the rest of the
  // server loads meanwhile.
  const opening = openDatabase(config, log);
  opening.catch(() => {}); // handled where it is awaited, below
  const [{ createContext }, { buildApp }, { prepareDatabase }] = await Promise.all([
    import('./app-context.js'),
    import('./app.js'),
    import('./bootstrap.js'),
  ]);
  phase('load');
  const db = await opening;
  phase('database');
  const ctx = createContext(config, db, log);
  try {
    await prepareDatabase(ctx);
  } catch (error) {
    // Closing releases the embedded database's lock file; the error worth reporting is the first.
    await db.close().catch(() => {});
    throw error;
  }
  phase('migrations');
  const app = await buildApp(ctx);
  phase('app');

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
    {
      database: db.kind === 'embedded' ? config.dataDir : 'postgres',
      startupMs: Date.now() - started,
      phasesMs: phases,
    },
    `Flagpole is ready on http://localhost:${config.port}`,
  );
}

main().catch((error) => {
  // These refusals explain themselves and say what to do; a stack would only bury that.
  // ImportFileError by name: importing its module here would load every area before the database opens.
  const expected =
    error instanceof DirectoryLockedError ||
    error instanceof MigrationError ||
    (error as Error | null)?.name === 'ImportFileError';
  console.error(expected ? error.message : error);
  process.exit(1);
});
