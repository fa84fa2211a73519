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

interface Templates {
  postgresUrl: string;
  postgresTemplate: string;
  embeddedTemplate: string;
  drop(): Promise<void>;
}

/** Made once per run: the suite's projects (vitest.config.ts) each call the setup. */
const shared = globalThis as { flagpoleTestTemplates?: Promise<Templates>; flagpoleTestUsers?: number };

async function makeTemplates(): Promise<Templates> {
  const postgresUrl = process.env.DATABASE_URL ?? '';
  if (postgresUrl) {
    const template = await createPostgresTemplate(postgresUrl);
    return {
      postgresUrl,
      postgresTemplate: template.name,
      embeddedTemplate: '',
      drop: () => template.drop(),
    };
  }
  const file = path.join(os.tmpdir(), `flagpole-test-template-${process.pid}-${Date.now()}.tgz`);
  writeFileSync(file, await buildEmbeddedTemplate());
  return {
    postgresUrl,
    postgresTemplate: '',
    embeddedTemplate: file,
    drop: async () => rmSync(file, { force: true }),
  };
}

/**
 * Runs once per `npm test`: migrates one template database, which every test file then clones
 * (PostgreSQL: CREATE DATABASE … TEMPLATE; embedded: a dumped data directory), instead of
 * running initdb and the migrations per file. Dropped when the last project using it is done.
 */
export default async function setup(project: TestProject): Promise<() => unknown> {
  shared.flagpoleTestTemplates ??= makeTemplates();
  shared.flagpoleTestUsers = (shared.flagpoleTestUsers ?? 0) + 1;
  const templates = await shared.flagpoleTestTemplates;
  project.provide('postgresUrl', templates.postgresUrl);
  project.provide('postgresTemplate', templates.postgresTemplate);
  project.provide('embeddedTemplate', templates.embeddedTemplate);
  return async () => {
    shared.flagpoleTestUsers! -= 1;
    if (shared.flagpoleTestUsers === 0) {
      shared.flagpoleTestTemplates = undefined;
      await templates.drop();
    }
  };
}
