// Adds `n` synthetic contributors to a stopped server's embedded database (set-based, one statement), so a
// restart spec has an export long enough to be cut in the middle.
//
//   node --import tsx e2e/seed-many-contributors.mjs <dataDir> <n>
const [dataDir, n] = process.argv.slice(2);
const { openDatabase } = await import('../apps/api/src/db/client.ts');
const { sql } = await import('drizzle-orm');
const database = await openDatabase({ dataDir });
await database.db.execute(sql`
  insert into contributors (cui, first_name, first_surname, search_name, birth_date, sex, type_id)
  select lpad(g::text, 9, '0') || '0101', 'Persona' || g, 'Exportación', 'PERSONA' || g || ' EXPORTACION',
    date '1960-01-01' + (g % 15000), case when g % 2 = 0 then 'F' else 'M' end,
    (select id from contributor_types order by sort_order limit 1)
  from generate_series(1, ${Number(n)}::int) g`);
await database.db.execute(sql`analyze contributors`);
await database.close();
