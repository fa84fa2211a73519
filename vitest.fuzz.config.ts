import { defineConfig } from 'vitest/config';

/** `npm run fuzz` (scripts/fuzz.mjs): the schema fuzzer and its cost run (`-- --cost`), kept out of `npm test`. */
export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.fuzz.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // A larger young generation, as the suite's (vitest.config.ts).
    poolOptions: { forks: { execArgv: ['--max-semi-space-size=32'] } },
    // The fuzzer keeps its own time budget (FUZZ_MINUTES); this only catches a hang outside it.
    testTimeout: 3 * 60 * 60_000,
    hookTimeout: 60_000,
  },
});
