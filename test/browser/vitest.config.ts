import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:browser`: pages driven in a real headless Chromium against a real Flagpole on a
// port. Two files at a time: one file keeps about one core busy, its browser waiting on its server
// and the server on its browser. A worker runs file after file with the server's modules loaded
// once (loading them anew for each file was a fifth of the run).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
