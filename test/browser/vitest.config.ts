import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:browser`: pages driven in a real headless Chromium against a real Flagpole on a
// port. Two files at a time: one file keeps about one core busy, its browser waiting on its server
// and the server on its browser. A worker runs file after file with the server's modules loaded
// once (loading them anew for each file was a fifth of the run). The files that time the page
// (`*-scale.test.ts`: a keystroke within 50 ms) run afterwards on their own (`npm run test:browser`):
// beside another file's browser, a keystroke took 74 ms.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // A larger young generation, as the suite's (vitest.config.ts).
    poolOptions: { forks: { execArgv: ['--max-semi-space-size=32'] } },
    maxWorkers: 2,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
