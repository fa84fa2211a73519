import { configDefaults, defineConfig } from 'vitest/config';

// Files that replace one of the server's modules (vi.mock): a project of their own, since each
// project's files run in workers of their own, which load the server anew.
const MOCKING = ['src/users/password-change.test.ts'];
const EXCLUDE = [
  ...configDefaults.exclude,
  // Whole processes killed and restarted: `npm run test:process`; a real browser: `npm run test:browser`.
  'test/process/**',
  'test/browser/**',
];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Both cores: a test file spends much of its time waiting (on PostgreSQL, timers, sockets).
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A worker runs one test file after another with the server's modules loaded once: loading and
    // compiling them anew for every file was half of the suite's time. Every file still starts its
    // own server on a database of its own. (The pool reads this from here, not from a project.)
    isolate: false,
    // A larger young generation for what dies young (answers, rows, bodies): 36 files of the suite
    // ran in 69–72 s instead of 73–74 (two runs each, alternated).
    poolOptions: { forks: { execArgv: ['--max-semi-space-size=32'] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...EXCLUDE, ...MOCKING],
        },
      },
      {
        extends: true,
        test: { name: 'mocking', include: MOCKING, exclude: EXCLUDE },
      },
    ],
  },
});
