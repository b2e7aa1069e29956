import { contributorSearchName, makeCui } from '@aporta/domain';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  budgetLines,
  contributors,
  contributorTypes,
  cuiApprovalRequests,
  municipalEntities,
  municipalities,
  renapPeople,
} from '../db/schema/index.ts';

/** Contributor catalogue values every installation starts with; later edits are kept (no overwrite). */
export async function seedContributorReference(db: Db): Promise<void> {
  await db
    .insert(contributorTypes)
    .values([
      { code: 'ACTIVO', name: 'Activo', sortOrder: 1 },
      { code: 'VOLUNTARIO', name: 'Voluntario', sortOrder: 2 },
      { code: 'PENSIONADO', name: 'Pensionado', sortOrder: 3 },
      { code: 'BENEFICIARIO', name: 'Beneficiario', sortOrder: 4 },
    ])
    .onConflictDoNothing();
}

/** Deterministic PRNG (mulberry32): the same seed gives the same synthetic registry everywhere. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const femaleNames = [
  'María',
  'Ana',
  'Rosa',
  'Carmen',
  'Lucía',
  'Marta',
  'Sofía',
  'Julia',
  'Elena',
  'Gabriela',
  'Andrea',
  'Claudia',
  'Patricia',
  'Verónica',
  'Alejandra',
  'Isabel',
  'Mónica',
  'Silvia',
  'Paola',
  'Karla',
];
const maleNames = [
  'José',
  'Juan',
  'Carlos',
  'Luis',
  'Jorge',
  'Mario',
  'Pedro',
  'Miguel',
  'Francisco',
  'Manuel',
  'Héctor',
  'Óscar',
  'Edgar',
  'Byron',
  'Marvin',
  'Rony',
  'Erick',
  'Walter',
  'Sergio',
  'Otto',
];
const surnames = [
  'López',
  'García',
  'Pérez',
  'Hernández',
  'Morales',
  'González',
  'Rodríguez',
  'Martínez',
  'Ramírez',
  'Castillo',
  'Juárez',
  'Méndez',
  'Cifuentes',
  'Chávez',
  'Xicará',
  'Tzul',
  'Cux',
  'Ajú',
  'Batz',
  'Choc',
  'Coc',
  'Ixcot',
  'Quiché',
  'Sical',
  'Barrios',
  'Orellana',
  'Recinos',
  'Monterroso',
  'Arévalo',
  'Estrada',
];

export interface SyntheticPerson {
  cui: string;
  firstName: string;
  secondName: string | null;
  thirdName: string | null;
  firstSurname: string;
  secondSurname: string | null;
  marriedSurname: string | null;
  birthDate: string;
  sex: 'M' | 'F';
  deathDate: string | null;
}

/** A person of the registry as a contributor row's identity: CUI, names (and their search form), birth date, sex. */
export const personColumns = (p: Omit<SyntheticPerson, 'deathDate' | 'sex'> & { sex: string }) => ({
  cui: p.cui,
  firstName: p.firstName,
  secondName: p.secondName,
  thirdName: p.thirdName,
  firstSurname: p.firstSurname,
  secondSurname: p.secondSurname,
  marriedSurname: p.marriedSurname,
  searchName: contributorSearchName(p),
  birthDate: p.birthDate,
  sex: p.sex as 'M' | 'F',
});

/** The i-th synthetic person: a valid CUI in municipality codes[i mod n], names and dates from the PRNG. */
export function* syntheticPeople(
  total: number,
  municipalityCodes: readonly string[],
  seed = 20_260_101,
): Generator<SyntheticPerson> {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const used = new Set<string>();
  for (let i = 0; i < total; i++) {
    const mun = municipalityCodes[i % municipalityCodes.length];
    let cui = makeCui(10_000_000 + Math.floor(rand() * 89_999_999), mun);
    while (used.has(cui)) cui = makeCui(Number(cui.slice(0, 8)) + 1, mun);
    used.add(cui);
    const sex = rand() < 0.5 ? 'F' : 'M';
    const names = sex === 'F' ? femaleNames : maleNames;
    const year = 1950 + Math.floor(rand() * 55);
    const day = 1 + Math.floor(rand() * 365);
    const birth = new Date(Date.UTC(year, 0, day)).toISOString().slice(0, 10);
    const married = sex === 'F' && rand() < 0.3 ? pick(surnames) : null;
    yield {
      cui,
      firstName: pick(names),
      secondName: rand() < 0.8 ? pick(names) : null,
      thirdName: null,
      firstSurname: pick(surnames),
      secondSurname: rand() < 0.9 ? pick(surnames) : null,
      marriedSurname: married,
      birthDate: birth,
      sex,
      deathDate: rand() < 0.01 ? `${2015 + Math.floor(rand() * 10)}-06-15` : null,
    };
  }
}

/**
 * Demo data (only with config.demoData): ~50 000 synthetic RENAP people across all 340 municipalities,
 * inserted in multi-row batches, and a few hundred demo contributors among them (one entity per
 * department when none exists). Idempotent: does nothing when the registry already has people.
 */
export async function seedContributorDemo(db: Db, opts: { people?: number; contributors?: number } = {}): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(renapPeople);
  if (n > 0) return;
  const munis = await db
    .select({ id: municipalities.id, code: municipalities.code })
    .from(municipalities)
    .orderBy(municipalities.code);
  if (munis.length === 0) return;
  const codes = munis.map((m) => m.code);
  const muniId = new Map(munis.map((m) => [m.code, m.id]));
  const total = opts.people ?? 50_000;
  const wanted = opts.contributors ?? 300;
  const demo: SyntheticPerson[] = [];
  let batch: SyntheticPerson[] = [];
  const flush = async () => {
    if (batch.length) await db.insert(renapPeople).values(batch);
    batch = [];
  };
  let i = 0;
  for (const p of syntheticPeople(total, codes)) {
    batch.push(p);
    // Every k-th living person also becomes a demo contributor.
    if (i % Math.max(1, Math.floor(total / wanted)) === 7 && !p.deathDate && demo.length < wanted) demo.push(p);
    i++;
    if (batch.length === 2000) await flush();
  }
  await flush();

  const [type] = await db.select({ id: contributorTypes.id }).from(contributorTypes).orderBy(contributorTypes.sortOrder).limit(1);
  const entities = await db
    .select({ id: municipalEntities.id })
    .from(municipalEntities)
    .where(sql`${municipalEntities.isActive}`)
    .limit(50);
  const lines = await db.select({ code: budgetLines.code }).from(budgetLines).limit(5);
  const types = await db.select({ id: contributorTypes.id }).from(contributorTypes);
  if (!type) return;
  const rand = prng(7);
  const rows = demo.map((p, k) => ({
    ...personColumns(p),
    municipalityId: muniId.get(p.cui.slice(9, 13)) ?? null,
    typeId: types[k % Math.min(types.length, 3)]?.id ?? type.id,
    state: (rand() < 0.85 ? 'ACTIVO' : 'INACTIVO') as 'ACTIVO' | 'INACTIVO',
    entityId: entities.length ? entities[k % entities.length].id : null,
    budgetLineCode: lines.length ? lines[k % lines.length].code : null,
    hireDate: `${2000 + (k % 24)}-0${1 + (k % 9)}-15`,
    salary: (3000 + Math.floor(rand() * 9000)).toFixed(2),
    cuiState: (k % 10 === 0 ? 'PENDIENTE' : 'APROBADO') as 'PENDIENTE' | 'APROBADO',
    renapCheckedAt: new Date(),
    renapResult: 'COINCIDE',
  }));
  await db.transaction(async (tx) => {
    for (let k = 0; k < rows.length; k += 500) {
      const inserted = await tx
        .insert(contributors)
        .values(rows.slice(k, k + 500))
        .returning({ id: contributors.id, cui: contributors.cui, cuiState: contributors.cuiState });
      const requests = inserted.map((c) => ({
        contributorId: c.id,
        kind: 'ALTA' as const,
        proposedCui: c.cui,
        state: c.cuiState,
        decidedAt: c.cuiState === 'APROBADO' ? new Date() : null,
      }));
      if (requests.length) await tx.insert(cuiApprovalRequests).values(requests);
    }
  });
}

/** The demo CUI checker (maker-checker needs a second person): documented in README, demo data only. */
