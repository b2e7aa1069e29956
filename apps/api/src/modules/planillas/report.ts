// The planilla as a document: its lines as a spreadsheet, and its PDF (registered with a verification code
// and filed in Documentos).
import { decimalToCents, formatCui, formatPeriod, type Planilla, type PlanillaLine, planillaMachine } from '@aporta/domain';
import { type ReportRequest, reportPdfFor } from '../../platform/downloads.ts';
import type { ExportColumn } from '../../platform/export.ts';
import type { FileStore } from '../../platform/files.ts';
import { fileDocument } from '../documents/filing.ts';
import { planillaLineBatches } from './lines.ts';
import { planillaTitle } from './queries.ts';

/** The columns of a planilla's lines in xlsx or csv. */
export const lineExportColumns: ExportColumn<PlanillaLine>[] = [
  { header: 'Línea', value: (l) => l.rowNumber },
  { header: 'CUI', value: (l) => l.cui, width: 16 },
  { header: 'Nombre', value: (l) => l.fullName, width: 36 },
  { header: 'Renglón', value: (l) => l.budgetLineCode },
  { header: 'Salario', value: (l) => l.salary ?? l.salaryText ?? '', money: true },
  { header: 'Días', value: (l) => l.daysWorked ?? '' },
  { header: 'Movimiento', value: (l) => (l.movement ? `${l.movement} ${l.movementDate ?? ''}` : '') },
  { header: 'Sujeto a cuota', value: (l) => (l.subject ? 'Sí' : 'No') },
  { header: 'Cuota laboral', value: (l) => l.employeeAmount, money: true },
  { header: 'Cuota patronal', value: (l) => l.employerAmount, money: true },
  { header: 'Errores', value: (l) => l.errors.map((e) => e.message).join(' '), width: 40 },
  { header: 'Advertencias', value: (l) => l.warnings.map((e) => e.message).join(' '), width: 40 },
];

/** `planilla-M-0101-2026-10`: the name of a planilla's files. */
export const planillaFileName = (p: Pick<Planilla, 'entityCode' | 'period'>) => `planilla-${p.entityCode}-${p.period}`;

/**
 * The planilla's PDF (entity, period, state, every line and the totals); a copy goes to the entity's folder in
 * Documentos, a new version when it was filed before. Filing is best effort: `onFilingError` hears why it failed.
 */
export async function planillaPdf(
  request: ReportRequest,
  files: FileStore,
  p: Planilla,
  appTitle: string,
  onFilingError: (err: unknown) => void,
) {
  const rows: (string | number | { cents: bigint })[][] = [];
  for await (const batch of planillaLineBatches(request.ctx, p.id)) {
    for (const l of batch) {
      rows.push([
        l.rowNumber,
        formatCui(l.cui),
        l.fullName,
        l.budgetLineCode,
        l.salary ? { cents: decimalToCents(l.salary) } : (l.salaryText ?? ''),
        { cents: decimalToCents(l.employeeAmount) },
        { cents: decimalToCents(l.employerAmount) },
      ]);
    }
  }
  const doc = await reportPdfFor(
    request,
    {
      kind: 'planilla',
      title: `Planilla ${planillaTitle(p)}`,
      filters: [
        { label: 'Entidad', value: `${p.entityCode} ${p.entityName}` },
        { label: 'Período', value: formatPeriod(p.period) },
        { label: 'Estado', value: planillaMachine.stateLabels[p.state] },
      ],
      orientation: 'landscape',
      tables: [
        {
          headers: ['Línea', 'CUI', 'Nombre', 'Renglón', 'Salario', 'Cuota laboral', 'Cuota patronal'],
          rows,
          numeric: [0, 4, 5, 6],
          totals: [
            '',
            '',
            `${p.lineCount} empleados`,
            '',
            { cents: decimalToCents(p.totalSalary) },
            { cents: decimalToCents(p.totalEmployee) },
            { cents: decimalToCents(p.totalEmployer) },
          ],
        },
      ],
    },
    appTitle,
  );
  // A copy goes to the entity's folder in Documentos (a new version when the planilla was filed before).
  await fileDocument(request.ctx, files, {
    folder: ['Planillas'],
    entityId: p.entityId,
    title: `Planilla ${planillaTitle(p)}`,
    docType: 'PLANILLA',
    sourceType: 'planilla',
    sourceId: p.id,
    file: { bytes: new Uint8Array(doc.pdf), filename: `${planillaFileName(p)}.pdf` },
  }).catch(onFilingError);
  return doc;
}
