import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:browser`: pages driven in a real headless Chromium against a real Flagpole on a
// port. One file at a time: a browser is heavy next to the servers it talks to.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
