import {
  AppError,
  formatCui,
  formatDay,
  msg,
  pensionTypeLabels,
  periodEnd,
  periodOf,
  periodStart,
  survivalWindow,
} from '@aporta/domain';
import { and, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pensions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { settingsAt } from '../settings/service.ts';
import { loadPension, pensionQuery, today, toPension } from './service.ts';

/** The letter to one pensioner whose check is due: a page of the letters PDF. */
function letterSection(p: ReturnType<typeof toPension>, w: { due: string; windowEnd: string; graceEnd: string }, first: boolean) {
  const d = formatDay;
  return {
    pageBreakBefore: !first,
    heading: `Señor(a) ${p.fullName}`,
    paragraphs: [
      `CUI: ${formatCui(p.cui)} · Pensión de ${pensionTypeLabels[p.type].toLowerCase()} · Resolución ${p.resolutionNumber}`,
      `Le recordamos que su constancia anual de supervivencia corresponde a su cumpleaños del ${d(w.due)}. Puede presentarla en persona en nuestras oficinas, mediante acta notarial o con la confirmación de RENAP, a más tardar el ${d(w.windowEnd)}.`,
      `Si no la presenta antes del ${d(w.graceEnd)}, su pensión se suspenderá. Al presentarla se reactivará y los meses suspendidos se pagarán en la siguiente planilla.`,
      'Atentamente,',
    ],
    signatures: { lines: [{ caption: 'Sección de Clases Pasivas' }] },
  };
}

/** The letters report for `rows` (one page each). */
export async function lettersReport(db: Db, rows: ReturnType<typeof toPension>[], asOf: string): Promise<ReportDefinition> {
  const s = (await settingsAt(db, asOf)).values;
  return {
    kind: 'survival-letters',
    // Letters, not a list: no "Filtros:" heading; the date printed as dd/mm/aaaa.
    layout: 'document',
    title: rows.length === 1 ? 'Aviso de supervivencia' : 'Avisos de supervivencia',
    filters: [],
    fields: [
      { label: 'Fecha', value: formatDay(asOf) },
      ...(rows.length > 1 ? [{ label: 'Pensionados', value: rows.length.toLocaleString('en-US') }] : []),
    ],
    tables: [],
    sections: rows.map((p, i) => letterSection(p, survivalWindow(p.survivalDue as string, s), i === 0)),
  };
}

/** The letter of one pension. Callers: supervivencia EXPORT. */
export async function oneLetter(ctx: RequestContext, pensionId: number) {
  const p = await loadPension(ctx.db, pensionId, ctx.inScope(pensions.entityId));
  if (p.state === 'FINALIZADA' || !p.survivalDue) throw new AppError('CONFLICT', msg('pensions.noSurvival'));
  return lettersReport(ctx.db, [p], today());
}

/** Pensions to write to on `asOf`: active ones whose due birthday falls in that month. */
export async function pensionsToWrite(ctx: RequestContext, input: { asOf: string; entityId?: number }) {
  const month = periodOf(input.asOf);
  const rows = await pensionQuery(ctx.db)
    .where(
      and(
        ctx.inScope(pensions.entityId),
        eq(pensions.state, 'ACTIVA'),
        gte(pensions.survivalDue, periodStart(month)),
        lte(pensions.survivalDue, periodEnd(month)),
        input.entityId ? eq(pensions.entityId, input.entityId) : undefined,
      ),
    )
    .orderBy(pensions.survivalDue, pensions.id)
    .limit(5000);
  return rows.map(toPension);
}
