import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Whole processes killed and restarted: `npm run test:process`; a real browser: `npm run test:browser`.
    exclude: [...configDefaults.exclude, 'test/process/**', 'test/browser/**'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
