import {
  AppError,
  type ContributorListQuery,
  type ContributorState,
  centsToDecimal,
  contributorStates,
  cuiApprovalMachine,
  decimalToCents,
} from '@aporta/domain';
import { count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contributors, contributorTypes, departments, municipalEntities, municipalities } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { ReportDefinition, ReportFilter } from '../../platform/pdf.ts';
import { contributorFilters } from '../contributors/filters.ts';

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
export async function contributorReport(ctx: RequestContext, input: { kind: ReportKind; filters: ReportFilters }) {
  const { db } = ctx;
  const { kind } = input;
  if (!ctx.scope) throw new AppError('FORBIDDEN');
  const where: SQL | undefined = contributorFilters(ctx.user, ctx.scope, input.filters);
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

const stateLabels: Record<ContributorState, string> = { ACTIVO: 'Activo', INACTIVO: 'Inactivo', FALLECIDO: 'Fallecido' };

/** The filters in words (label: value), for the header of an exported report. */
export async function describeFilters(db: Db, f: ReportFilters): Promise<ReportFilter[]> {
  const out: ReportFilter[] = [];
  const one = async (label: string, id: number, p: Promise<{ n: string }[]>) =>
    out.push({ label, value: (await p)[0]?.n ?? `#${id}` });
  if (f.entityId)
    await one(
      'Entidad',
      f.entityId,
      db.select({ n: municipalEntities.name }).from(municipalEntities).where(eq(municipalEntities.id, f.entityId)),
    );
  if (f.departmentId)
    await one(
      'Departamento',
      f.departmentId,
      db.select({ n: departments.name }).from(departments).where(eq(departments.id, f.departmentId)),
    );
  if (f.municipalityId)
    await one(
      'Municipio',
      f.municipalityId,
      db.select({ n: municipalities.name }).from(municipalities).where(eq(municipalities.id, f.municipalityId)),
    );
  if (f.typeId)
    await one(
      'Tipo',
      f.typeId,
      db.select({ n: contributorTypes.name }).from(contributorTypes).where(eq(contributorTypes.id, f.typeId)),
    );
  if (f.state) out.push({ label: 'Estado', value: stateLabels[f.state] });
  if (f.cuiState) out.push({ label: 'Estado del CUI', value: cuiApprovalMachine.stateLabels[f.cuiState] });
  return out;
}

const firstHeader: Record<ReportKind, string> = {
  general: 'Departamento',
  'by-municipality': 'Municipio',
  'by-type': 'Tipo de afiliado',
};

/**
 * One contributor report as a document (PDF or spreadsheet, platform/pdf.ts): the same rows and
 * totals as the screen, with the filters in words. Callers: the report's EXPORT permission.
 */
export async function contributorReportDocument(
  ctx: RequestContext,
  input: { kind: ReportKind; filters: ReportFilters },
): Promise<ReportDefinition> {
  const report = await contributorReport(ctx, input);
  const withGroup = input.kind === 'by-municipality';
  const values = (r: ReportRow) => [
    r.label,
    ...(withGroup ? [r.group ?? ''] : []),
    r.ACTIVO,
    r.INACTIVO,
    r.FALLECIDO,
    r.total,
    { cents: decimalToCents(r.salaryTotal) },
  ];
  return {
    kind: `contributor-report-${input.kind}`,
    title: report.title,
    filters: await describeFilters(ctx.db, input.filters),
    noFilters: 'ninguno (todos los afiliados de su alcance)',
    tables: [
      {
        headers: [
          firstHeader[input.kind],
          ...(withGroup ? ['Departamento'] : []),
          'Activos',
          'Inactivos',
          'Fallecidos',
          'Total',
          'Salarios (Q)',
        ],
        rows: report.items.map(values),
        totals: values({ ...report.totals, group: withGroup ? '' : null }),
      },
    ],
  };
}
