import { loadConfig } from './config.js';
import { DirectoryLockedError } from './db/lock-file.js';
import { MigrationError } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { createLogger } from './log.js';

/** A refusal to start that says what to do: printed as it is, without a stack. */
class StartupError extends Error {}

/** Why the server could not listen, in one line saying what to change; undefined for the unforeseen. */
function listenProblem(error: unknown, port: number, host: string): string | undefined {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'EADDRINUSE':
      return `Port ${port} is already in use: stop what holds it or set PORT.`;
    case 'EACCES':
      return `Port ${port} needs privileges this process does not have: set PORT to 1024 or above.`;
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is no address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all.`;
  }
  return undefined;
}

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
  const [{ createContext }, { buildApp }, { prepareDatabase, warnAboutDefaultPassword }] = await Promise.all([
    import('./compose.js'),
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
  // A password hash on the thread pool, while the app is built.
  const warned = warnAboutDefaultPassword(ctx).catch((error: unknown) =>
    log.error({ err: error }, 'could not check the default admin password'),
  );
  const app = await buildApp(ctx);
  await warned;
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

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close().catch(() => {});
    await db.close().catch(() => {});
    const problem = listenProblem(error, config.port, config.host);
    throw problem ? new StartupError(problem) : error;
  }
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
    error instanceof StartupError ||
    (error as Error | null)?.name === 'ImportFileError';
  console.error(expected ? error.message : error);
  process.exit(1);
});
