// What the audit log's hash chain costs (platform/audit-chain.ts): writing N audit rows with the id's default
// that takes the transaction id first, against plain nextval; sealing them (per 10 000 rows); verifying the
// whole chain. PGlite by default; PostgreSQL with BENCH_DATABASE_URL.
//   node --import tsx bench/audit-chain.mjs 100000
import { openBenchDatabase, say } from './lib.mjs';

const n = Number(process.argv[2] ?? 100_000);
const { sql } = await import('drizzle-orm');
const { sealAuditChain, verifyAuditChain } = await import('../apps/api/src/platform/audit-chain.ts');

const time = async (label, fn) => {
  const t0 = performance.now();
  const out = await fn();
  const s = (performance.now() - t0) / 1000;
  return { out, s, label };
};

const { database, dispose } = await openBenchDatabase();
const db = database.db;
try {
  // Rows like the application's: a change of a few fields, an actor, an address, an entity.
  const insert = (count) =>
    db.execute(sql`insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, before, after, ip, scope_entity_id)
      select null, 'usuario' || (i % 50) || '@muni.gob.gt', 'UPDATE', 'contributor', (i % 100000)::text,
             jsonb_build_object('salary', (1000 + i % 5000)::text || '.00', 'status', 'ACTIVO', 'name', 'Nombre ' || i),
             jsonb_build_object('salary', (1100 + i % 5000)::text || '.00', 'status', 'ACTIVO', 'name', 'Nombre ' || i),
             '10.0.' || (i % 255) || '.' || (i % 200), 1 + i % 300
        from generate_series(1, ${count}) i`);
  // Settle what the seed wrote first.
  await sealAuditChain(db, { untilNow: true });

  const chained = await time(`escribir ${n} filas (id: xid antes de nextval)`, () => insert(n));
  await db.execute(sql`alter table audit_log alter column id set default nextval('audit_log_id_seq'::regclass)`);
  const plain = await time(`escribir ${n} filas (id: nextval simple)`, () => insert(n));
  await db.execute(
    sql`alter table audit_log alter column id set default (case when pg_current_xact_id() is not null then nextval('audit_log_id_seq'::regclass) end)`,
  );
  const seal = await time(`sellar ${2 * n} filas`, () => sealAuditChain(db, { untilNow: true, timeoutMs: 600_000 }));
  const verify = await time(`verificar la cadena (${2 * n} filas)`, () => verifyAuditChain(db));
  if (!verify.out.intact) throw new Error(`cadena rota: ${JSON.stringify(verify.out.broken)}`);

  say(`base: ${database.kind}`);
  for (const r of [chained, plain]) say(`${r.label.padEnd(52)} ${r.s.toFixed(2)} s`);
  say(`${seal.label.padEnd(52)} ${seal.s.toFixed(2)} s  → ${((seal.s / (2 * n)) * 10_000).toFixed(3)} s por 10 000 filas`);
  say(
    `${verify.label.padEnd(52)} ${verify.s.toFixed(2)} s  → ${((verify.s / (2 * n)) * 10_000).toFixed(3)} s por 10 000 filas (${verify.out.sealedRows} filas íntegras)`,
  );
} finally {
  await dispose();
}
