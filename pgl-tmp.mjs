import { PGlite } from '@electric-sql/pglite';

let t = Date.now();
const db = await PGlite.create({
  dataDir: '/tmp/fp-restart/pgdata',
  postgresqlconf: ['shared_buffers = 16MB'],
});
console.log('create', Date.now() - t);
t = Date.now();
await db.query('select 1');
console.log('q', Date.now() - t);
t = Date.now();
await db.close();
