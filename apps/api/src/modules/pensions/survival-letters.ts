import {
  AppError,
  formatCui,
  formatDay,
  msg,
  pensionTypeLabels,
  periodEnd,
  periodOf,
  periodStart,
  type SurvivalStatus,
  survivalStatus,
  survivalWindow,
} from '@aporta/domain';
import { and, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pensions } from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import type { ReportDefinition } from '../../platform/pdf.ts';
import { settingsAt } from '../settings/service.ts';
import { loadPension, pensionQuery, today, toPension } from './service.ts';

/**
 * The letter to one pensioner about the check their pension waits for (`w`, the stored due birthday's
 * windows), worded for where that check stands on the letter's date (`status`, the pension's `state`):
 * - not yet due or in its window: a reminder, with the last day to present it and the day after which the
 *   pension is suspended;
 * - overdue within grace: the check was not received, the last day before the suspension;
 * - beyond grace, or the pension already suspended: the check was not received, the pension is (or will
 *   be) suspended until it is presented.
 * A pension registered long after its start, or never checked, waits for the first birthday after its
 * start (decisions, issue 15): its letter used to remind the pensioner of that birthday's deadlines as if
 * they were still ahead ("a más tardar el 09/04/2020" in a letter dated 2026).
 */
function letterSection(
  p: ReturnType<typeof toPension>,
  w: { due: string; windowEnd: string; graceEnd: string },
  status: SurvivalStatus,
  first: boolean,
) {
  const d = formatDay;
  const ways = 'en persona en nuestras oficinas, mediante acta notarial o con la confirmación de RENAP';
  const missed = `Su constancia anual de supervivencia correspondía a su cumpleaños del ${d(w.due)} y no la hemos recibido: el plazo para presentarla venció el ${d(w.windowEnd)}`;
  const paragraphs =
    status === 'SUSPENDER' || (status === 'VENCIDA' && p.state === 'SUSPENDIDA')
      ? [
          `${missed} y el período de gracia, el ${d(w.graceEnd)}. Por eso su pensión ${p.state === 'SUSPENDIDA' ? 'está suspendida' : 'será suspendida'} hasta que la presente.`,
          `Puede presentarla ${ways}. Al presentarla, su pensión se reactivará y los meses suspendidos se pagarán en la siguiente planilla.`,
        ]
      : status === 'VENCIDA'
        ? [
            `${missed}.`,
            `Preséntela ${ways} a más tardar el ${d(w.graceEnd)}; si no, su pensión se suspenderá. Si se suspende, al presentarla se reactivará y los meses suspendidos se pagarán en la siguiente planilla.`,
          ]
        : [
            `Le recordamos que su constancia anual de supervivencia corresponde a su cumpleaños del ${d(w.due)}. Puede presentarla ${ways}, a más tardar el ${d(w.windowEnd)}.`,
            `Si no la presenta a más tardar el ${d(w.graceEnd)}, su pensión se suspenderá. Al presentarla se reactivará y los meses suspendidos se pagarán en la siguiente planilla.`,
          ];
  return {
    pageBreakBefore: !first,
    heading: `Señor(a) ${p.fullName}`,
    paragraphs: [
      `CUI: ${formatCui(p.cui)} · Pensión de ${pensionTypeLabels[p.type].toLowerCase()} · Resolución ${p.resolutionNumber}`,
      ...paragraphs,
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
    sections: rows.map((p, i) => {
      const due = p.survivalDue as string;
      return letterSection(p, survivalWindow(due, s), survivalStatus(due, asOf, s), i === 0);
    }),
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
