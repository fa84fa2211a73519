import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flagpole-launch-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid and address Flagpole logs once it listens (pino lines carry the pid). */
function listening(child: ChildProcess): Promise<{ pid: number; url: string }> {
  let seen = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((l) => l.includes('Server listening at'));
      if (!line) return;
      const { pid, msg } = JSON.parse(line) as { pid: number; msg: string };
      resolve({ pid, url: /(http:\/\/127\.0\.0\.1:\d+)/.exec(msg)![1]! });
    });
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}) before listening:\n${seen}`)));
  });
}

describe('npm start', () => {
  it('runs Flagpole as npm itself: a SIGTERM to npm stops Flagpole gracefully, leaving nothing behind', async () => {
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const npmExited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    try {
      const { pid, url } = await listening(npm);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      npm.kill('SIGTERM');
      await npmExited;
      // Flagpole got the signal too (it is the shell's process, not a child npm leaves behind).
      const deadline = Date.now() + 10_000;
      while (isRunning(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(isRunning(pid)).toBe(false);
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    } finally {
      npm.kill('SIGKILL');
    }
  });
});
