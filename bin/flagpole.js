#!/usr/bin/env node
// `npx flagpole`: the server as `npm start` runs it, as far as flags can be set after Node has
// started. V8's WebAssembly flags take effect for code compiled from here on (the embedded
// PostgreSQL is compiled later), its heap growth at its next collection; the young generation's
// size, V8's threads and MALLOC_MMAP_THRESHOLD_ only work on the command line, where `npm start`
// puts them.
import { setFlagsFromString } from 'node:v8';

for (const flag of ['--no-wasm-async-compilation', '--liftoff-only', '--heap-growing-percent=50']) {
  setFlagsFromString(flag);
}

// npx starts this through `sh -c`, and passes a SIGTERM on to that shell only: the shell dies of it
// and Flagpole would run on, orphaned. So under npx, the shell's end is taken as the signal.
if (process.env.npm_command === 'exec') {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 250);
  watch.unref();
}

await import('../dist/main.js');
