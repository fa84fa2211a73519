import type { Validate } from './validation.js';

/**
 * The checks of check.ts compiled when the server is built, by the key of their schema: the build
 * (scripts/precompile-checks.mjs) writes this module again in dist/ with them. Run from the sources
 * (the tests), there are none, and each check is compiled on its first use.
 */
export const precompiledChecks: ReadonlyMap<string, Validate> = new Map();
