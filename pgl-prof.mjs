import { PGlite } from '@electric-sql/pglite';

const db = await PGlite.create({ dataDir: '/tmp/pgd3' });
await db.exec(
  'CREATE TABLE IF NOT EXISTS t (id int primary key, v text); INSERT INTO t SELECT g, g::text FROM generate_series(1,1000) g ON CONFLICT DO NOTHING',
);
for (let i = 0; i < 20000; i++) await db.query('SELECT v FROM t WHERE id = $1', [5]);
await db.close();
