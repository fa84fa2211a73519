import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function newestIn(dir: string): number {
  return Math.max(
    ...readdirSync(dir).map((name) => {
      const full = path.join(dir, name);
      const stat = statSync(full);
      return stat.isDirectory() ? newestIn(full) : stat.mtimeMs;
    }),
  );
}

/**
 * These tests run the built server (dist/main.js, as `npm start` does): it is built first when
 * src/ changed since, so a test never judges an older build.
 */
export default function setup(project: TestProject): void {
  const bundle = path.join(ROOT, 'dist/main.js');
  const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  if (built < Math.max(newestIn(path.join(ROOT, 'src')), statSync(path.join(ROOT, 'package.json')).mtimeMs)) {
    console.log('process tests: building dist/ (src/ changed since the last build)');
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  }
  project.provide('postgresUrl', process.env.DATABASE_URL ?? '');
}
