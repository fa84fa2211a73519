import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

const conf = process.argv[2] ? process.argv[2].split(';') : undefined;
const db = await PGlite.create({
  loadDataDir: new Blob([fs.readFileSync('dist/db/pglite-template.tgz')]),
  postgresqlconf: conf,
});
console.log(
  (
    await db.query(
      "select name, setting from pg_settings where name in ('max_files_per_process','shared_buffers','fsync','synchronous_commit','wal_level','track_counts','track_activities','stats_fetch_consistency','autovacuum')",
    )
  ).rows
    .map((r) => r.name + '=' + r.setting)
    .join(' '),
);
await db.exec("INSERT INTO features (name, project) VALUES ('f1','default')");
const sql =
  'SELECT name, project, description, type, stale, impression_data, archived_at, created_at, last_seen_at FROM features WHERE name = $1';
for (let i = 0; i < 300; i++) await db.query(sql, ['f1']);
const t0 = performance.now();
for (let i = 0; i < 2000; i++) await db.query(sql, ['f1']);
console.log(conf, (((performance.now() - t0) / 2000) * 1000).toFixed(0), 'us per query');
await db.close();
