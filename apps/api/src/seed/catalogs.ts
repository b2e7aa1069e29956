import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  banks,
  budgetLines,
  classifications,
  delegates,
  departments,
  entityAssignments,
  entityRegions,
  institutions,
  municipalEntities,
  municipalities,
  paymentAgreementStatuses,
  planillaStatuses,
  regionDelegates,
  regions,
  users,
} from '../db/schema/index.ts';
import { systemActor, writeAudit } from '../platform/audit.ts';

/** The eight development regions of Guatemala (Ley Preliminar de Regionalización) and their departments. */
export const seedRegions: { code: string; name: string; departments: string[] }[] = [
  { code: 'I', name: 'Metropolitana', departments: ['01'] },
  { code: 'II', name: 'Norte', departments: ['16', '15'] },
  { code: 'III', name: 'Nororiente', departments: ['02', '18', '19', '20'] },
  { code: 'IV', name: 'Suroriente', departments: ['06', '21', '22'] },
  { code: 'V', name: 'Central', departments: ['03', '04', '05'] },
  { code: 'VI', name: 'Suroccidente', departments: ['07', '08', '09', '10', '11', '12'] },
  { code: 'VII', name: 'Noroccidente', departments: ['13', '14'] },
  { code: 'VIII', name: 'Petén', departments: ['17'] },
];

/** The capital's municipality runs its own plan, so it gets no entity (issue 5). */
export const CAPITAL_MUNICIPALITY = '0101';

const seedClassifications = [
  { code: 'MUNICIPALIDAD', name: 'Municipalidad' },
  { code: 'EMPRESA_MUNICIPAL', name: 'Empresa municipal' },
  { code: 'MANCOMUNIDAD', name: 'Mancomunidad de municipios' },
  { code: 'ASOCIACION', name: 'Asociación de municipalidades' },
  { code: 'ENTIDAD_DESCENTRALIZADA', name: 'Entidad municipal descentralizada' },
];

/** Renglones of the budget classification manual; the subject ones are DOMAIN.md's initial list. */
const seedBudgetLines = [
  { code: '011', name: 'Personal permanente', isSubjectToContribution: true },
  { code: '015', name: 'Complementos específicos al personal permanente', isSubjectToContribution: false },
  { code: '021', name: 'Personal supernumerario', isSubjectToContribution: true },
  { code: '022', name: 'Personal por contrato', isSubjectToContribution: true },
  { code: '029', name: 'Otras remuneraciones de personal temporal', isSubjectToContribution: false },
  { code: '031', name: 'Jornales', isSubjectToContribution: true },
  { code: '035', name: 'Retribuciones a destajo', isSubjectToContribution: true },
  { code: '036', name: 'Retribuciones por servicios', isSubjectToContribution: true },
  { code: '071', name: 'Aguinaldo', isSubjectToContribution: false },
  { code: '072', name: 'Bonificación anual (bono 14)', isSubjectToContribution: false },
];

/**
 * The banks of the Guatemalan banking system (Superintendencia de Bancos) where an institution receives
 * payments: the state's bank (CHN), the national banks and Citibank's branch.
 */
export const seedBanks = [
  { code: 'BANRURAL', name: 'Banco de Desarrollo Rural, S. A.' },
  { code: 'INDUSTRIAL', name: 'Banco Industrial, S. A.' },
  { code: 'GYT', name: 'Banco G&T Continental, S. A.' },
  { code: 'BAM', name: 'Banco Agromercantil de Guatemala, S. A.' },
  { code: 'BANTRAB', name: 'Banco de los Trabajadores' },
  { code: 'BAC', name: 'Banco de América Central, S. A.' },
  { code: 'INMOBILIARIO', name: 'Banco Inmobiliario, S. A.' },
  { code: 'PROMERICA', name: 'Banco Promerica, S. A.' },
  { code: 'INTERBANCO', name: 'Banco Internacional, S. A.' },
  { code: 'VIVIBANCO', name: 'Vivibanco, S. A.' },
  { code: 'FICOHSA', name: 'Banco Ficohsa Guatemala, S. A.' },
  { code: 'AZTECA', name: 'Banco Azteca de Guatemala, S. A.' },
  { code: 'ANTIGUA', name: 'Banco de Antigua, S. A.' },
  { code: 'INV', name: 'Banco INV, S. A.' },
  { code: 'CHN', name: 'El Crédito Hipotecario Nacional de Guatemala' },
  { code: 'CITIBANK', name: 'Citibank, N. A., Sucursal Guatemala' },
];

const seedPlanillaStatuses = [
  { code: 'BORRADOR', label: 'Borrador', color: 'gray', sortOrder: 1 },
  { code: 'ENVIANDO', label: 'Enviando', color: 'cyan', sortOrder: 2 },
  { code: 'ENVIADA', label: 'Enviada', color: 'blue', sortOrder: 2 },
  { code: 'EN_REVISION', label: 'En revisión', color: 'yellow', sortOrder: 3 },
  { code: 'APROBADA', label: 'Aprobada', color: 'green', sortOrder: 4 },
  { code: 'OBSERVADA', label: 'Observada', color: 'orange', sortOrder: 5 },
  { code: 'RECHAZADA', label: 'Rechazada', color: 'red', sortOrder: 6 },
  { code: 'PAGADA', label: 'Pagada', color: 'teal', sortOrder: 7 },
  { code: 'ANULADA', label: 'Anulada', color: 'dark', sortOrder: 8 },
];

const seedAgreementStatuses = [
  { code: 'VIGENTE', label: 'Vigente', color: 'blue', sortOrder: 1 },
  { code: 'CUMPLIDO', label: 'Cumplido', color: 'green', sortOrder: 2 },
  { code: 'INCUMPLIDO', label: 'Incumplido', color: 'red', sortOrder: 3 },
  { code: 'ANULADO', label: 'Anulado', color: 'gray', sortOrder: 4 },
];

/**
 * Catalogue reference data. Idempotent, and it never brings back what an administrator removed: the
 * editable catalogues are seeded only while empty; the fixed lifecycle codes always exist.
 */
export async function seedCatalogs(tx: Db): Promise<void> {
  await tx.insert(planillaStatuses).values(seedPlanillaStatuses).onConflictDoNothing();
  await tx.insert(paymentAgreementStatuses).values(seedAgreementStatuses).onConflictDoNothing();

  const [{ n: nBudget }] = await tx.select({ n: count() }).from(budgetLines);
  if (nBudget === 0) await tx.insert(budgetLines).values(seedBudgetLines);

  const [{ n: nClass }] = await tx.select({ n: count() }).from(classifications);
  if (nClass === 0) await tx.insert(classifications).values(seedClassifications);

  const [{ n: nBanks }] = await tx.select({ n: count() }).from(banks);
  if (nBanks === 0) await tx.insert(banks).values(seedBanks);

  const [{ n: nRegions }] = await tx.select({ n: count() }).from(regions);
  if (nRegions === 0) {
    const inserted = await tx
      .insert(regions)
      .values(seedRegions.map(({ code, name }) => ({ code, name })))
      .returning({ id: regions.id, code: regions.code });
    const idOf = new Map(inserted.map((r) => [r.code, r.id]));
    for (const r of seedRegions) {
      await tx
        .update(departments)
        .set({ regionId: idOf.get(r.code)! })
        .where(and(inArray(departments.code, r.departments), isNull(departments.regionId)));
    }
  }

  const [{ n: nEntities }] = await tx.select({ n: count() }).from(municipalEntities);
  if (nEntities === 0) await seedMunicipalidades(tx);
}

/** One "Municipalidad de X" per municipality except the capital's, in its department's region, with its ENTIDAD institution. */
async function seedMunicipalidades(tx: Db) {
  const [muni] = await tx
    .select({ id: classifications.id })
    .from(classifications)
    .where(eq(classifications.code, 'MUNICIPALIDAD'));
  if (!muni) return;
  const rows = await tx
    .select({ id: municipalities.id, code: municipalities.code, name: municipalities.name, regionId: departments.regionId })
    .from(municipalities)
    .innerJoin(departments, eq(departments.id, municipalities.departmentId))
    .orderBy(municipalities.code);
  const wanted = rows.filter((m) => m.code !== CAPITAL_MUNICIPALITY);
  const entities = await tx
    .insert(municipalEntities)
    .values(
      wanted.map((m) => ({
        code: `MUNI-${m.code}`,
        name: `Municipalidad de ${m.name}`,
        classificationId: muni.id,
        municipalityId: m.id,
      })),
    )
    .returning({ id: municipalEntities.id, code: municipalEntities.code, name: municipalEntities.name });
  const regionOf = new Map(wanted.map((m) => [`MUNI-${m.code}`, m.regionId]));
  const links = entities.flatMap((e) => {
    const regionId = regionOf.get(e.code);
    return regionId ? [{ entityId: e.id, regionId }] : [];
  });
  if (links.length) await tx.insert(entityRegions).values(links).onConflictDoNothing();
  await tx
    .insert(institutions)
    .values(entities.map((e) => ({ code: e.code, name: e.name, kind: 'ENTIDAD' as const, entityId: e.id })))
    .onConflictDoNothing();
}

/**
 * The demo delegates' regions (DEMO_DATA only). Their accounts are demo users of the accounts seeds (role
 * "Delegado", password in README.md); this links each to a delegate record, its regions and entities.
 */
export const demoDelegates = [
  { email: 'delegado@demo.aporta.local', cui: '1234567891601', phone: '7951 2040', regions: ['II', 'VIII'] },
  { email: 'delegado.occidente@demo.aporta.local', cui: '2345678130901', phone: '7761 3300', regions: ['VI', 'VII'] },
] as const;

const demoEntities = [
  {
    code: 'EMP-0901-AGUA',
    name: 'Empresa Municipal de Agua de Quetzaltenango',
    classification: 'EMPRESA_MUNICIPAL',
    municipality: '0901',
    region: 'VI',
    delegate: 1,
  },
  {
    code: 'EMP-1301-ELEC',
    name: 'Empresa Eléctrica Municipal de Huehuetenango',
    classification: 'EMPRESA_MUNICIPAL',
    municipality: '1301',
    region: 'VII',
    delegate: 1,
  },
  {
    code: 'EMP-1601-MERC',
    name: 'Empresa Municipal de Mercados de Cobán',
    classification: 'EMPRESA_MUNICIPAL',
    municipality: '1601',
    region: 'II',
    delegate: 0,
  },
  {
    code: 'MANC-0501-SUR',
    name: 'Mancomunidad Costa Sur',
    classification: 'MANCOMUNIDAD',
    municipality: '0501',
    region: 'V',
    delegate: 0,
  },
] as const;

/** Demo data of the catalogues: a few empresas municipales and two delegates with regions and entities. */
export async function seedCatalogDemo(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const emails = demoDelegates.map((d) => d.email);
    const accounts = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(sql`lower(${users.email})`, emails));
    const [{ n }] = await tx
      .select({ n: count() })
      .from(delegates)
      .where(
        inArray(
          delegates.userId,
          accounts.map((a) => a.id),
        ),
      );
    if (accounts.length < demoDelegates.length || n > 0) return;
    const regionRows = await tx.select({ id: regions.id, code: regions.code }).from(regions);
    const regionId = new Map(regionRows.map((r) => [r.code, r.id]));

    const delegateIds: number[] = [];
    for (const d of demoDelegates) {
      const userId = accounts.find((a) => a.email.toLowerCase() === d.email)!.id;
      const [del] = await tx.insert(delegates).values({ userId, cui: d.cui, phone: d.phone }).returning({ id: delegates.id });
      delegateIds.push(del.id);
      for (const code of d.regions) {
        const rid = regionId.get(code);
        if (rid) await tx.insert(regionDelegates).values({ regionId: rid, delegateId: del.id }).onConflictDoNothing();
      }
      await writeAudit(tx, systemActor, {
        action: 'CREATE',
        entityType: 'delegates',
        entityId: del.id,
        after: { userId, cui: d.cui },
      });
    }

    const classRows = await tx.select({ id: classifications.id, code: classifications.code }).from(classifications);
    const classId = new Map(classRows.map((r) => [r.code, r.id]));
    for (const e of demoEntities) {
      const [mun] = await tx
        .select({ id: municipalities.id })
        .from(municipalities)
        .where(eq(municipalities.code, e.municipality));
      const cid = classId.get(e.classification);
      if (!mun || !cid) continue;
      const [ent] = await tx
        .insert(municipalEntities)
        .values({ code: e.code, name: e.name, classificationId: cid, municipalityId: mun.id })
        .onConflictDoNothing()
        .returning({ id: municipalEntities.id });
      if (!ent) continue;
      const rid = regionId.get(e.region);
      if (rid) await tx.insert(entityRegions).values({ entityId: ent.id, regionId: rid }).onConflictDoNothing();
      await tx.insert(entityAssignments).values({ entityId: ent.id, delegateId: delegateIds[e.delegate] }).onConflictDoNothing();
      await tx
        .insert(institutions)
        .values({ code: e.code, name: e.name, kind: 'ENTIDAD', entityId: ent.id })
        .onConflictDoNothing();
    }
  });
}
