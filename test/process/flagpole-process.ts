import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Flagpole as `npm start` runs it, `[VAR=value …] node [flags …] dist/main.js` read from
 * package.json, but started here without npm, so that the test signals Flagpole itself.
 */
const START = (() => {
  const script: string = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).scripts.start;
  const words = script.split(/\s+/);
  const node = words.indexOf('node');
  const assignments = words.slice(0, node).filter((w) => w.includes('='));
  const env = Object.fromEntries(assignments.map((w) => w.split('=') as [string, string]));
  return { env, args: words.slice(node + 1) };
})();

/** The output kept for a failure's message: the end of it is what explains an exit. */
const OUTPUT_KEPT = 20_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface FlagpoleProcess {
  readonly pid: number;
  /** Resolves with the base URL once the server listens (PORT=0: a free port the kernel chose). */
  readonly ready: Promise<string>;
  readonly exited: Promise<Exit>;
  /** The end of what the process wrote to stdout and stderr. */
  output(): string;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<Exit>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<Exit>;
}

/** Every process started here and still running, so that none outlives its test whatever happens. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills what a failed test left running, and waits until it is gone. */
export async function killAll(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return exited;
    }),
  );
}

/** Starts Flagpole on a free port with `env` added to the test's environment. */
export function startFlagpole(env: Record<string, string>): FlagpoleProcess {
  const child = spawn(process.execPath, START.args, {
    cwd: ROOT,
    env: { ...process.env, ...START.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  let seen = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      seen += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (listening) resolve(listening[1]!);
    });
    child.stderr!.on('data', keep);
    void exited.then((exit) =>
      reject(new Error(`Flagpole exited before listening (${JSON.stringify(exit)}):\n${output}`)),
    );
  });
  ready.catch(() => {}); // a caller that kills it during start-up does not wait for it
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    return exited;
  };
  return {
    pid: child.pid!,
    ready,
    exited,
    output: () => output,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}
