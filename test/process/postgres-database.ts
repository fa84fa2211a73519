import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from '../database.js';

export interface EmptyDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function asAdmin<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the server of `baseUrl`: Flagpole migrates it itself at its first start. */
export async function createEmptyDatabase(baseUrl: string, label: string): Promise<EmptyDatabase> {
  const name = `flagpole_${label}_${randomBytes(5).toString('hex')}`;
  await asAdmin(baseUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(baseUrl, name),
    name,
    drop: () =>
      asAdmin(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/** Runs one query on a database (what the test reads behind Flagpole's back: the migrations table). */
export async function queryDatabase<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  return asAdmin(url, async (c) => (await c.query<R>(sql)).rows);
}
