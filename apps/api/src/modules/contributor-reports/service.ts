import {
  type ContributorListQuery,
  type CurrentUser,
  centsToDecimal,
  contributorStates,
  decimalToCents,
  type Scope,
} from '@aporta/domain';
import { count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  contributors,
  contributorTypes,
  departments,
  institutions,
  municipalEntities,
  municipalities,
} from '../../db/schema/index.ts';
import { contributorFilters } from '../contributors/service.ts';

export const reportKinds = ['general', 'by-municipality', 'by-type'] as const;
export type ReportKind = (typeof reportKinds)[number];

export const reportTitles: Record<ReportKind, string> = {
  general: 'Afiliados por departamento y estado',
  'by-municipality': 'Afiliados por municipio y estado',
  'by-type': 'Afiliados por tipo y estado',
};

export interface ReportRow {
  key: string;
  label: string;
  group: string | null;
  ACTIVO: number;
  INACTIVO: number;
  FALLECIDO: number;
  total: number;
  salaryTotal: string;
}

export type ReportFilters = Pick<
  Partial<ContributorListQuery>,
  'entityId' | 'departmentId' | 'municipalityId' | 'typeId' | 'state' | 'cuiState'
>;

/**
 * One contributor report: counts per group (department, municipality or type) and state, with the
 * sum of salaries, within the caller's scope and filters; plus the totals row. Callers: the report's
 * own READ/EXPORT permission.
 */
export async function contributorReport(opts: {
  db: Db;
  user: CurrentUser;
  scope: Scope;
  kind: ReportKind;
  filters: ReportFilters;
}) {
  const { db, kind } = opts;
  const where: SQL | undefined = contributorFilters(opts.user, opts.scope, opts.filters);
  const groupCols =
    kind === 'by-type'
      ? {
          key: sql<string>`${contributorTypes.code}`,
          label: sql<string>`${contributorTypes.name}`,
          group: sql<string | null>`null`,
        }
      : kind === 'general'
        ? {
            key: sql<string>`coalesce(${departments.code}, '—')`,
            label: sql<string>`coalesce(${departments.name}, 'Sin municipio registrado')`,
            group: sql<string | null>`null`,
          }
        : {
            key: sql<string>`coalesce(${municipalities.code}, '—')`,
            label: sql<string>`coalesce(${municipalities.name}, 'Sin municipio registrado')`,
            group: sql<string | null>`${departments.name}`,
          };
  const rows = await db
    .select({
      key: groupCols.key,
      label: groupCols.label,
      group: groupCols.group,
      state: contributors.state,
      n: count(),
      salary: sql<string>`coalesce(sum(${contributors.salary}), 0)::text`,
    })
    .from(contributors)
    .innerJoin(contributorTypes, eq(contributorTypes.id, contributors.typeId))
    .leftJoin(municipalities, eq(municipalities.id, contributors.municipalityId))
    .leftJoin(departments, eq(departments.id, municipalities.departmentId))
    .where(where)
    .groupBy(
      ...(kind === 'by-municipality' ? [groupCols.key, groupCols.label, groupCols.group] : [groupCols.key, groupCols.label]),
      contributors.state,
    );
  const byKey = new Map<string, ReportRow>();
  const salaryCents = new Map<string, bigint>();
  for (const r of rows) {
    let row = byKey.get(r.key);
    if (!row) {
      row = { key: r.key, label: r.label, group: r.group, ACTIVO: 0, INACTIVO: 0, FALLECIDO: 0, total: 0, salaryTotal: '0.00' };
      byKey.set(r.key, row);
    }
    row[r.state] += r.n;
    row.total += r.n;
    salaryCents.set(r.key, (salaryCents.get(r.key) ?? 0n) + decimalToCents(r.salary));
  }
  const items = [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
  for (const row of items) row.salaryTotal = centsToDecimal(salaryCents.get(row.key) ?? 0n);
  const totals: ReportRow = {
    key: 'TOTAL',
    label: 'Total',
    group: null,
    ACTIVO: 0,
    INACTIVO: 0,
    FALLECIDO: 0,
    total: 0,
    salaryTotal: '0.00',
  };
  let totalCents = 0n;
  for (const row of items) {
    for (const s of contributorStates) totals[s] += row[s];
    totals.total += row.total;
    totalCents += salaryCents.get(row.key) ?? 0n;
  }
  totals.salaryTotal = centsToDecimal(totalCents);
  return { kind, title: reportTitles[kind], items, totals };
}

/** The filters in words, for the header of an exported report. */
export async function describeFilters(db: Db, f: ReportFilters): Promise<string[]> {
  const out: string[] = [];
  const one = async <T>(p: Promise<T[]>) => (await p)[0];
  if (f.entityId)
    out.push(
      `Entidad: ${(await one(db.select({ n: municipalEntities.name }).from(municipalEntities).where(eq(municipalEntities.id, f.entityId))))?.n ?? f.entityId}`,
    );
  if (f.departmentId)
    out.push(
      `Departamento: ${(await one(db.select({ n: departments.name }).from(departments).where(eq(departments.id, f.departmentId))))?.n ?? f.departmentId}`,
    );
  if (f.municipalityId)
    out.push(
      `Municipio: ${(await one(db.select({ n: municipalities.name }).from(municipalities).where(eq(municipalities.id, f.municipalityId))))?.n ?? f.municipalityId}`,
    );
  if (f.typeId)
    out.push(
      `Tipo: ${(await one(db.select({ n: contributorTypes.name }).from(contributorTypes).where(eq(contributorTypes.id, f.typeId))))?.n ?? f.typeId}`,
    );
  if (f.state) out.push(`Estado: ${f.state}`);
  if (f.cuiState) out.push(`Estado del CUI: ${f.cuiState}`);
  return out.length ? out : ['Sin filtros: todos los afiliados de su alcance'];
}

/** The institution's name for the report header (the INSTITUCION row), else the app title. */
export async function institutionName(db: Db, fallback: string): Promise<string> {
  const [i] = await db
    .select({ name: institutions.name })
    .from(institutions)
    .where(eq(institutions.kind, 'INSTITUCION'))
    .limit(1);
  return i?.name ?? fallback;
}
