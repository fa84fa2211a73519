import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { TestProject } from 'vitest/node';
import { buildEmbeddedTemplate } from '../src/db/template.js';
import { createPostgresTemplate } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresTemplate: string;
    embeddedTemplate: string;
    embeddedTemplateTar: string;
  }
}

interface Templates {
  postgresUrl: string;
  postgresTemplate: string;
  embeddedTemplate: string;
  embeddedTemplateTar: string;
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
      embeddedTemplateTar: '',
      drop: () => template.drop(),
    };
  }
  // Gzipped, as the package ships it, for the tests that unpack it as a first start does; and as a
  // plain tar for every test file's database, which loads it in memory: gunzipping 40 MB was near
  // half the time of opening one.
  const base = path.join(os.tmpdir(), `flagpole-test-template-${process.pid}-${Date.now()}`);
  const gzipped = await buildEmbeddedTemplate();
  writeFileSync(`${base}.tgz`, gzipped);
  writeFileSync(`${base}.tar`, gunzipSync(gzipped));
  return {
    postgresUrl,
    postgresTemplate: '',
    embeddedTemplate: `${base}.tgz`,
    embeddedTemplateTar: `${base}.tar`,
    drop: async () => {
      rmSync(`${base}.tgz`, { force: true });
      rmSync(`${base}.tar`, { force: true });
    },
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
  project.provide('embeddedTemplateTar', templates.embeddedTemplateTar);
  return async () => {
    shared.flagpoleTestUsers! -= 1;
    if (shared.flagpoleTestUsers === 0) {
      shared.flagpoleTestTemplates = undefined;
      await templates.drop();
    }
  };
}
