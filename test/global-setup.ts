import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildEmbeddedTemplate } from '../src/db/template.js';
import { createPostgresTemplate } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresTemplate: string;
    embeddedTemplate: string;
  }
}

/**
 * Runs once per `npm test`: migrates one template database, which every test file then clones
 * (PostgreSQL: CREATE DATABASE … TEMPLATE; embedded: a dumped data directory), instead of
 * running initdb and the migrations per file.
 */
export default async function setup(project: TestProject): Promise<() => unknown> {
  const postgresUrl = process.env.DATABASE_URL ?? '';
  project.provide('postgresUrl', postgresUrl);
  if (postgresUrl) {
    const template = await createPostgresTemplate(postgresUrl);
    project.provide('postgresTemplate', template.name);
    project.provide('embeddedTemplate', '');
    return () => template.drop();
  }
  const file = path.join(os.tmpdir(), `flagpole-test-template-${process.pid}-${Date.now()}.tgz`);
  writeFileSync(file, await buildEmbeddedTemplate());
  project.provide('postgresTemplate', '');
  project.provide('embeddedTemplate', file);
  return () => rmSync(file, { force: true });
}
