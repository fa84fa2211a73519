import fs from 'node:fs';
import path from 'node:path';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database is a set of files that one process may open at a time: a second
 * Flagpole on the same directory must stop with a clear message instead of corrupting it.
 * A lock left by a process that died is taken over.
 */
export function acquireDirectoryLock(dir: string): () => void {
  const file = path.join(dir, 'flagpole.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(fs.readFileSync(file, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
      throw new DirectoryLockedError(
        `The data directory ${dir} is in use by another Flagpole process (pid ${owner}). ` +
          'Stop that process first, or give this one its own DATA_DIR.',
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new DirectoryLockedError(`Could not lock the data directory ${dir}: ${file} keeps reappearing.`);
}

export class DirectoryLockedError extends Error {
  override name = 'DirectoryLockedError';
}
