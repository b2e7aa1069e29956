// Agreements, the financial module (issue 14) through the real app (buildApp + app.inject) on a fresh
// embedded database, or PostgreSQL with BENCH_DATABASE_URL:
//   1. The arrears ranking over 2 000 entities with 5 years of monthly orders (two per month: employee and
//      employer; a third of them unpaid) — GET /api/financial/arrears. Goal ≤ 1 s.
//   2. The daily default/completion detection over 10 000 agreements in force (four instalments each; 1 in
//      50 with two instalments overdue, 1 in 100 fully paid) — detectAgreements as the daily job runs it. Goal ≤ 5 s.
//   3. An account statement of 20 years (240 periods, two orders a month, a payment each) — GET
//      /api/financial/statement. Goal ≤ 300 ms.
//
//   node --import tsx bench/agreements.mjs [entities=2000] [agreements=10000]
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/agreements.mjs
import { benchApp, benchEntity, loadApi, monthlyOrders, openBenchDatabase, say, timer } from './lib.mjs';

const ENTITIES = Number(process.argv[2] ?? 2000);
const AGREEMENTS = Number(process.argv[3] ?? 10_000);
const { addDays, guatemalaToday } = await import('@aporta/domain');
// The API loads before the database, as it always has (loadApi in lib.mjs says why).
await loadApi();
const { systemContext } = await import('../apps/api/src/platform/context.ts');
const { detectAgreements } = await import('../apps/api/src/modules/agreements/detection.ts');
const { sql } = await import('drizzle-orm');

// Under a second in milliseconds.
const time = timer({ pad: 60, format: (s) => (s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toFixed(0)} ms`) });

const { database, dispose } = await openBenchDatabase();
const db = database.db;
const today = guatemalaToday();
const { mun, cls } = await benchEntity(db, { entity: false });
const { app, headers } = await benchApp(database);
const get = (url) => app.inject({ method: 'GET', url, headers });

const total = Math.max(ENTITIES, AGREEMENTS) + 1;
await time(`${total} entidades`, () =>
  db.execute(sql`insert into municipal_entities (code, name, classification_id, municipality_id)
    select 'B-' || g, 'Entidad ' || g, ${cls.id}, ${mun.id} from generate_series(1, ${total}) g`),
);
const [{ first }] = (await db.execute(sql`select min(id)::int as first from municipal_entities where code like 'B-%'`)).rows;
const regions = await db.execute(sql`select id from regions order by id limit 8`);
if (regions.rows.length) {
  await db.execute(sql`insert into entity_regions (entity_id, region_id)
    select e.id, (array[${sql.raw(regions.rows.map((r) => r.id).join(','))}])[1 + e.id % ${regions.rows.length}]
    from municipal_entities e where e.code like 'B-%'`);
}

// Orders: the reference only has to be unique here (the bench does not pay through a bank).
const orders = (entityWhere, months, from) => monthlyOrders(entityWhere, months, sql`${from}::date`);
const fiveYearsAgo = `${Number(today.slice(0, 4)) - 5}${today.slice(4, 7)}-01`;
await time(`${ENTITIES} entidades × 60 meses × 2 órdenes (inserción)`, () =>
  db.execute(orders(sql`e.code like 'B-%' and e.id < ${first + ENTITIES}`, 60, fiveYearsAgo)),
);
await db.execute(sql`analyze payment_orders`);

// 1. The ranking.
await get('/api/financial/arrears?limit=1');
const [rank] = await time(`ranking de mora (${ENTITIES} entidades, 5 años)`, () => get('/api/financial/arrears'));
const r = rank.json();
say(`  ${r.items.length} entidades en mora; total Q ${r.totals.total}; 1.ª ${r.items[0]?.entityName} Q ${r.items[0]?.total}`);
await time('el mismo ranking otra vez', () => get('/api/financial/arrears'));
await time('ranking de una región', () => get(`/api/financial/arrears?regionId=${regions.rows[0]?.id ?? 1}`));

// 2. 10 000 agreements in force with four instalments each (down payment and three).
await time(`${AGREEMENTS} convenios con 4 cuotas (inserción)`, async () => {
  await db.execute(sql`insert into payment_agreements (number, entity_id, agreement_date, principal, interest, admin_charge,
      debt, down_payment, instalment_count, settings_used)
    select 'CP-B-' || e.id, e.id, ${addDays(today, -100)}::date, 400000, 0, 0, 400000, 100000, 3, '{}'::jsonb
    from municipal_entities e where e.code like 'B-%' and e.id < ${first + AGREEMENTS}`);
  // Instalment n of agreement a: due 100 − 30 n days ago... unless the agreement is one of the ordinary ones,
  // whose unpaid instalments fall due later; 1 in 50 has two overdue and unpaid; 1 in 100 is fully paid.
  await db.execute(sql`insert into payment_orders (kind, entity_id, period, periods, reference, issue_date, due_date,
      accrued_to, principal, state, principal_paid, paid_at)
    select 'CONVENIO', a.entity_id, to_char(d.due, 'YYYY-MM'), array[to_char(d.due, 'YYYY-MM')], 'BC' || a.id || '-' || n,
      ${addDays(today, -100)}::date, d.due, d.due, 100000,
      case when d.paid then 'PAGADA' else 'EMITIDA' end, case when d.paid then 100000 else 0 end, case when d.paid then now() end
    from payment_agreements a cross join generate_series(0, 3) n
    cross join lateral (select
      case when a.id % 50 = 0 then ${today}::date - (100 - 30 * n)
           when a.id % 100 = 1 then ${today}::date - (100 - 20 * n)
           else ${today}::date - 100 + 60 * n end as due,
      case when a.id % 100 = 1 then true when a.id % 50 = 0 then n = 0 else n <= 1 end as paid) d`);
  await db.execute(sql`insert into payment_agreement_orders (agreement_id, order_id, role, schedule, number, principal_due, interest_due)
    select split_part(substr(o.reference, 3), '-', 1)::int, o.id, 'CUOTA', 0, split_part(o.reference, '-', 2)::int, o.principal, 0
    from payment_orders o where o.kind = 'CONVENIO' and o.reference like 'BC%'`);
  await db.execute(sql`analyze`);
});
const ctx = systemContext(db);
const [det] = await time(`detección diaria sobre ${AGREEMENTS} convenios`, () => detectAgreements(ctx, today));
say(`  ${det.defaulted} incumplidos, ${det.completed} cumplidos`);
await time('la detección otra vez (nada que cambiar)', () => detectAgreements(ctx, today));

// 3. A statement of 20 years: 240 periods, two orders a month.
const statementEntity = first + total - 1;
const twentyYearsAgo = `${Number(today.slice(0, 4)) - 20}${today.slice(4, 7)}-01`;
await db.execute(orders(sql`e.id = ${statementEntity}`, 240, twentyYearsAgo));
await get(`/api/financial/statement?entityId=${statementEntity}`);
const [st] = await time('estado de cuenta de 20 años (240 períodos)', () =>
  get(`/api/financial/statement?entityId=${statementEntity}`),
);
const s = st.json();
say(`  ${s.periods.length} períodos; ordenado Q ${s.totals.ordered}; saldo Q ${s.totals.balance}`);
await time('el mismo estado de cuenta otra vez', () => get(`/api/financial/statement?entityId=${statementEntity}`));

await app.close();
await dispose();
