import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:process`: whole Flagpole processes, killed and stopped with real signals. Slower
// than the suite, so apart from it; on the embedded database, or on DATABASE_URL when set.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/process/**/*.test.ts'],
    globalSetup: ['test/process/global-setup.ts'],
    pool: 'forks',
    // One file at a time: each drives several servers hard, and its timings should measure them,
    // not the other files.
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
