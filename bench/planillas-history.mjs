// A contributor's 30-year contribution history with 10 000 000 planilla lines in the database, on
// PostgreSQL (issue 12: ≤ 100 ms). Fills a fresh database set-based (generate_series: 360 periods ×
// 100 entities, ~278 lines each), then times GET /api/contribution-history/contributor through the app.
//
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/planillas-history.mjs [lines=10000000]
import { benchApp, benchEntity, loadApi, openBenchDatabase, say, timer } from './lib.mjs';

const total = Number(process.argv[2] ?? 10_000_000);
if (!process.env.BENCH_DATABASE_URL) throw new Error('BENCH_DATABASE_URL es obligatorio: este banco mide PostgreSQL.');
const { makeCui } = await import('@aporta/domain');
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi();
const { sql } = await import('drizzle-orm');

const time = timer({ pad: 44 });

const name = `aporta_bench_hist_${process.pid}`;
// BENCH_KEEP=1 keeps the database to look at the plans (psql …/aporta_bench_hist_<pid>).
const keep = !!process.env.BENCH_KEEP;
const { database, dispose } = await openBenchDatabase({ name, keep });
try {
  const db = database.db;
  const ENTITIES = 100;
  const PERIODS = 360; // 30 years
  const perPlanilla = Math.ceil(total / (ENTITIES * PERIODS));
  // People: each entity employs `perPlanilla` seats; a seat's holder changes every 10 years, so a CUI has
  // 10 years at one entity and the population is 3 × ENTITIES × perPlanilla people.
  const people = 3 * ENTITIES * perPlanilla;
  const { mun, cls } = await benchEntity(db, { entity: false });
  await time(`${ENTITIES} entidades`, () =>
    db.execute(sql`insert into municipal_entities (code, name, classification_id, municipality_id)
      select 'E-' || g, 'Entidad ' || g, ${cls.id}, ${mun.id} from generate_series(1, ${ENTITIES}) g`),
  );
  await time(`${ENTITIES * PERIODS} planillas (30 años)`, () =>
    db.execute(sql`insert into planillas (entity_id, period, type, state, line_count)
      select e.id, to_char(date '1996-01-01' + (p || ' month')::interval, 'YYYY-MM'), 'ORDINARIA', 'APROBADA', ${perPlanilla}
      from municipal_entities e, generate_series(0, ${PERIODS - 1}) p`),
  );
  // CUIs: a deterministic valid CUI per person, computed in SQL would need the check digit; use a table.
  await time(`${people} CUIs`, async () => {
    await db.execute(sql`create table bench_people (n int primary key, cui text not null)`);
    for (let k = 0; k < people; k += 20_000) {
      const batch = Array.from({ length: Math.min(20_000, people - k) }, (_, i) => [
        k + i,
        makeCui(40_000_000 + (k + i) * 7, '0101'),
      ]);
      await db.execute(
        sql`insert into bench_people select (x->>0)::int, x->>1 from jsonb_array_elements(${JSON.stringify(batch)}::jsonb) x`,
      );
    }
  });
  await time(`${(ENTITIES * PERIODS * perPlanilla).toLocaleString('es-GT')} líneas`, async () => {
    for (let e0 = 0; e0 < ENTITIES; e0 += 10) {
      await db.execute(sql`
        insert into planilla_lines (planilla_id, row_number, period, entity_id, cui, full_name, budget_line_code, salary,
          subject, employee_amount, employer_amount)
        select p.id, s, p.period, p.entity_id, bp.cui, 'Empleado ' || bp.n, '011', 3000 + s, true,
          round((3000 + s) * 0.07, 2), round((3000 + s) * 0.07, 2)
        from planillas p
        cross join generate_series(1, ${perPlanilla}) s
        join bench_people bp on bp.n = ((p.entity_id - 1) * ${perPlanilla} + s - 1) * 3
          + ((substr(p.period, 1, 4)::int - 1996) / 10)
        where p.entity_id in (select id from municipal_entities order by id offset ${e0} limit 10)`);
    }
  });
  // As autovacuum leaves a table some time after a bulk load: statistics and the visibility map.
  await time('VACUUM ANALYZE', () => db.execute(sql`vacuum analyze`));
  const [{ n }] = (await db.execute(sql`select count(*)::int as n from planilla_lines`)).rows;
  say(`líneas en la base: ${Number(n).toLocaleString('es-GT')}`);

  const { app, headers } = await benchApp(database, { startJobs: true });
  const cuis = (await db.execute(sql`select cui from bench_people order by n limit 20 offset 1000`)).rows.map((r) => r.cui);
  await app.inject({ method: 'GET', url: `/api/contribution-history/contributor?cui=${cuis[0]}`, headers });
  const t0 = performance.now();
  let months = 0;
  for (const cui of cuis) {
    const res = await app.inject({
      method: 'GET',
      url: `/api/contribution-history/contributor?cui=${cui}&from=1996-01&to=2025-12`,
      headers,
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    months = res.json().months.length;
  }
  say(
    `historial de un afiliado (30 años)            ${((performance.now() - t0) / cuis.length).toFixed(1)} ms  (promedio de ${cuis.length}; ${months} meses; objetivo ≤ 100 ms)`,
  );
  const t1 = performance.now();
  for (let e = 1; e <= 10; e++)
    await app.inject({ method: 'GET', url: `/api/contribution-history/entity?entityId=${e}`, headers });
  say(`historial de una entidad (360 meses)          ${((performance.now() - t1) / 10).toFixed(1)} ms`);
  await app.close();
} finally {
  await dispose();
  if (keep) say(`base conservada: ${name}`);
}
