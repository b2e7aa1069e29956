import { randomUUID } from 'node:crypto';
import {
  AppError,
  type ContributorData,
  type CurrentUser,
  checkImportHeaders,
  contributorFullName,
  contributorSearchName,
  type ImportCatalogues,
  type ImportColumnKey,
  type ImportRawRow,
  type ImportRowError,
  importColumns,
  numberCellText,
  type Scope,
  validateImportRow,
} from '@aporta/domain';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  budgetLines,
  contributorImportRows,
  contributorImports,
  contributors,
  contributorTypes,
  municipalEntities,
  municipalities,
} from '../../db/schema/index.ts';
import { type Actor, writeAudit } from '../../platform/audit.ts';
import { type KeysetChunk, keysetBatches, pageOf } from '../../platform/list.ts';
import { scopedEntityIdSet } from '../../platform/scope.ts';
import { type Cell, csvRows, type FileKind, guardXlsx, IMPORT_LIMITS, type SheetRow, sniffFile, xlsxRows } from './reader.ts';

type ImportRecord = typeof contributorImports.$inferSelect;

export const toImport = (r: ImportRecord) => ({
  id: r.id,
  fileName: r.fileName,
  format: r.format,
  status: r.status,
  totalRows: r.totalRows,
  processedRows: r.processedRows,
  validRows: r.validRows,
  errorRows: r.errorRows,
  message: r.message,
  createdAt: r.createdAt.toISOString(),
  committedAt: r.committedAt?.toISOString() ?? null,
  committedRows: r.committedRows,
});

/** Loads the catalogue codes a row may use, and the uploader's writable entities. */
async function loadCatalogues(db: Db, user: CurrentUser, scope: Scope): Promise<ImportCatalogues> {
  const [munis, types, entities, lines, allowed] = await Promise.all([
    db.select({ id: municipalities.id, code: municipalities.code }).from(municipalities),
    db
      .select({ id: contributorTypes.id, code: contributorTypes.code })
      .from(contributorTypes)
      .where(eq(contributorTypes.isActive, true)),
    db
      .select({ id: municipalEntities.id, code: municipalEntities.code })
      .from(municipalEntities)
      .where(eq(municipalEntities.isActive, true)),
    db.select({ code: budgetLines.code }).from(budgetLines).where(eq(budgetLines.isActive, true)),
    scopedEntityIdSet(db, user.id, scope),
  ]);
  return {
    municipalities: new Map(munis.map((m) => [m.code, m.id])),
    types: new Map(types.map((t) => [t.code.toUpperCase(), t.id])),
    entities: new Map(entities.map((e) => [e.code.toUpperCase(), e.id])),
    budgetLines: new Set(lines.map((l) => l.code)),
    allowedEntityIds: allowed,
  };
}

/**
 * A cell as the text the row validator reads: a number as Excel shows it (15 significant digits, no
 * exponent: numberCellText), a real date cell as its ISO day. A number is never turned into a date
 * here: the date parser refuses `1980` whether it was typed as text or as a number.
 */
function cellText(c: Cell): string {
  if (c == null) return '';
  if (typeof c === 'string') return c;
  if (typeof c === 'number') return numberCellText(c);
  if (c instanceof Date) return c.toISOString().slice(0, 10);
  return '';
}

interface PendingRow {
  row_number: number;
  is_valid: boolean;
  cui: string;
  data: (ContributorData & { searchName: string }) | null;
  raw: ImportRawRow | null;
  errors: ImportRowError[] | null;
}

const BATCH = 2000;

/**
 * Reads an uploaded file (already on disk, ≤ 20 MB), validates every row and keeps the result in the
 * database for the preview and the commit. Refuses the whole file for what no row can fix (not a
 * spreadsheet, a zip bomb, no or wrong header, > 200 000 rows); everything else is a row exception.
 * Callers: contributor-bulk-upload CREATE.
 */
export async function validateImport(opts: {
  db: Db;
  actor: Actor;
  user: CurrentUser;
  scope: Scope;
  id?: string;
  fileName: string;
  path: string;
}): Promise<ReturnType<typeof toImport>> {
  const { db, actor, user } = opts;
  const kind: FileKind = await sniffFile(opts.path, opts.fileName);
  if (kind === 'xlsx') await guardXlsx(opts.path);
  const id = opts.id ?? randomUUID();
  const [existing] = await db.select({ id: contributorImports.id }).from(contributorImports).where(eq(contributorImports.id, id));
  if (existing) throw new AppError('DUPLICATE', 'Ya existe una carga con ese identificador.');
  await db
    .insert(contributorImports)
    .values({ id, fileName: opts.fileName.slice(0, 200), format: kind, status: 'VALIDANDO', createdBy: actor.id });
  try {
    const rows = kind === 'xlsx' ? xlsxRows(opts.path, { isDataSheet: isTemplateHeader }) : csvRows(opts.path);
    const counts = await validateRows(db, user, opts.scope, id, rows);
    const [done] = await db
      .update(contributorImports)
      .set({ status: 'VALIDADO', ...counts, processedRows: counts.totalRows })
      .where(eq(contributorImports.id, id))
      .returning();
    await writeAudit(db, actor, {
      action: 'IMPORT_VALIDATE',
      entityType: 'contributor_import',
      entityId: id,
      after: { fileName: opts.fileName, ...counts },
    });
    return toImport(done);
  } catch (err) {
    const message = err instanceof AppError ? err.message : 'No se pudo leer el archivo.';
    await db.delete(contributorImportRows).where(eq(contributorImportRows.importId, id));
    await db.update(contributorImports).set({ status: 'FALLIDO', message }).where(eq(contributorImports.id, id));
    if (err instanceof AppError) throw err;
    throw new AppError(
      'VALIDATION',
      'No se pudo leer el archivo: está dañado o no tiene el formato de la plantilla.',
      undefined,
      {
        cause: err,
      },
    );
  }
}

/** A first row with every required column of the template: the data sheet of a workbook. */
const isTemplateHeader = (cells: Cell[]) => checkImportHeaders(cells.map((c) => cellText(c).trim())).missing.length === 0;

async function validateRows(db: Db, user: CurrentUser, scope: Scope, id: string, rows: AsyncGenerator<SheetRow>) {
  const cat = await loadCatalogues(db, user, scope);
  let map: (ImportColumnKey | null)[] | null = null;
  let columnIndex = new Map<string, number>();
  /** The cell (`U5`) of a template column in a row, as the spreadsheet shows it; none for other problems. */
  const cellOf = (column: string, rowNumber: number) => {
    const index = columnIndex.get(column);
    return index === undefined ? undefined : `${columnLetter(index)}${rowNumber}`;
  };
  const seen = new Map<string, number>();
  let pending: PendingRow[] = [];
  let totalRows = 0;
  let validRows = 0;
  let errorRows = 0;

  const flush = async () => {
    if (!pending.length) return;
    // Against the database: CUIs already registered are exceptions too.
    const cuis = pending.filter((r) => r.is_valid).map((r) => r.cui);
    if (cuis.length) {
      const taken = await db
        .select({ cui: contributors.cui, id: contributors.id })
        .from(contributors)
        .where(inArray(contributors.cui, cuis));
      const byCui = new Map(taken.map((t) => [t.cui, t.id]));
      for (const r of pending) {
        const existing = byCui.get(r.cui);
        if (r.is_valid && existing) {
          r.is_valid = false;
          r.errors = [
            {
              column: 'CUI',
              cell: cellOf('CUI', r.row_number),
              message: `Ya existe un afiliado con este CUI (/contributors/${existing}).`,
            },
          ];
        }
      }
    }
    for (const r of pending) {
      if (r.is_valid) validRows += 1;
      else {
        errorRows += 1;
        r.data = null;
      }
      if (r.is_valid) r.raw = null;
    }
    await db.execute(sql`
      insert into ${contributorImportRows} (import_id, row_number, is_valid, cui, data, raw, errors)
      select ${id}::uuid, x.row_number, x.is_valid, x.cui, x.data, x.raw, x.errors
      from jsonb_to_recordset(${JSON.stringify(pending)}::jsonb)
        as x(row_number int, is_valid boolean, cui text, data jsonb, raw jsonb, errors jsonb)`);
    pending = [];
    await db.update(contributorImports).set({ processedRows: totalRows }).where(eq(contributorImports.id, id));
  };

  for await (const row of rows) {
    if (!map) {
      const headers = row.cells.map((c) => cellText(c).trim());
      const lastNamed = headers.reduce((last, h, i) => (h ? i : last), -1);
      if (lastNamed < 0) {
        throw new AppError('VALIDATION', 'La primera fila está vacía: debe contener los encabezados de la plantilla.', [
          { path: 'archivo', row: row.rowNumber, message: 'Fila de encabezados vacía.' },
        ]);
      }
      if (row.cells.some((c) => typeof c === 'object' && c !== null && !(c instanceof Date))) {
        throw new AppError('VALIDATION', 'La fila de encabezados contiene fórmulas; escriba los nombres de columna.');
      }
      const gaps = headers.slice(0, lastNamed + 1).flatMap((h, i) => (h ? [] : [columnLetter(i)]));
      if (gaps.length) {
        throw new AppError(
          'VALIDATION',
          `La fila de encabezados tiene celdas vacías o combinadas (columnas ${gaps.join(', ')}).`,
          [{ path: 'encabezados', row: row.rowNumber, message: `Celdas vacías: ${gaps.join(', ')}` }],
        );
      }
      const check = checkImportHeaders(headers.slice(0, lastNamed + 1));
      if (check.missing.length || check.unknown.length || check.duplicated.length) {
        const parts = [
          check.missing.length ? `faltan ${check.missing.join(', ')}` : '',
          check.unknown.length ? `no se reconocen ${check.unknown.join(', ')}` : '',
          check.duplicated.length ? `están repetidas ${check.duplicated.join(', ')}` : '',
        ].filter(Boolean);
        throw new AppError('VALIDATION', `Las columnas no coinciden con la plantilla: ${parts.join('; ')}.`, [
          ...check.missing.map((c) => ({ path: c, message: 'Columna obligatoria faltante.' })),
          ...check.unknown.map((c) => ({ path: c, message: 'Columna desconocida.' })),
          ...check.duplicated.map((c) => ({ path: c, message: 'Columna repetida.' })),
        ]);
      }
      map = check.map;
      columnIndex = new Map(
        map.flatMap((key, i) => (key ? [[importColumns.find((x) => x.key === key)!.header, i] as const] : [])),
      );
      continue;
    }
    if (row.cells.every((c) => c == null || (typeof c === 'string' && c.trim() === ''))) continue;
    totalRows += 1;
    if (totalRows > IMPORT_LIMITS.maxRows) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `El archivo tiene más de ${IMPORT_LIMITS.maxRows.toLocaleString('es-GT')} filas; divídalo en varios archivos.`,
      );
    }
    const raw: ImportRawRow = {};
    const numberCells = new Set<ImportColumnKey>();
    const formulaCols: string[] = [];
    for (let i = 0; i < map.length; i++) {
      const key = map[i];
      if (!key) continue;
      const c = row.cells[i] ?? null;
      if (c !== null && typeof c === 'object' && !(c instanceof Date)) {
        formulaCols.push(importColumns.find((x) => x.key === key)!.header);
        raw[key] = '';
        continue;
      }
      raw[key] = cellText(c);
      if (typeof c === 'number') numberCells.add(key);
    }
    const extra = row.cells.slice(map.length).some((c) => c != null && cellText(c).trim() !== '');
    const result = validateImportRow(raw, cat, numberCells);
    const errors: ImportRowError[] = result.ok ? [] : [...result.errors];
    for (const col of formulaCols) errors.unshift({ column: col, message: 'La celda contiene una fórmula; pegue solo valores.' });
    if (extra) errors.push({ column: '(fuera de la plantilla)', message: 'Hay datos en columnas sin encabezado.' });
    const cui = result.ok ? result.data.cui : (raw.cui ?? '').replace(/[\s-]/g, '');
    if (result.ok && !errors.length) {
      const first = seen.get(cui);
      if (first) errors.push({ column: 'CUI', message: `CUI repetido en el archivo (ya está en la fila ${first}).` });
      else seen.set(cui, row.rowNumber);
    }
    for (const e of errors) e.cell = cellOf(e.column, row.rowNumber);
    pending.push({
      row_number: row.rowNumber,
      is_valid: errors.length === 0,
      cui: cui.slice(0, 20),
      data: result.ok && !errors.length ? { ...result.data, searchName: contributorSearchName(result.data) } : null,
      raw,
      errors: errors.length ? errors : null,
    });
    if (pending.length >= BATCH) await flush();
  }
  if (!map) throw new AppError('VALIDATION', 'El archivo no tiene filas: descargue la plantilla y llénela.');
  await flush();
  return { totalRows, validRows, errorRows };
}

const columnLetter = (i: number): string =>
  i < 26 ? String.fromCharCode(65 + i) : columnLetter(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26));

async function loadImport(db: Db, actor: Actor, id: string): Promise<ImportRecord> {
  const [imp] = await db.select().from(contributorImports).where(eq(contributorImports.id, id));
  // An upload is private to the person who made it (it may hold another entity's people).
  if (!imp || (imp.createdBy !== null && imp.createdBy !== actor.id)) throw new AppError('NOT_FOUND', 'La carga no existe.');
  return imp;
}

/**
 * The uploader's unfinished uploads (validating, waiting for confirmation, or failed), newest first:
 * what the bulk-upload screen offers to open or discard, e.g. one interrupted by a restart.
 */
export async function findOpenImports(opts: { db: Db; actor: Actor }) {
  if (opts.actor.id == null) return [];
  const rows = await opts.db
    .select()
    .from(contributorImports)
    .where(
      and(
        eq(contributorImports.createdBy, opts.actor.id),
        inArray(contributorImports.status, ['VALIDANDO', 'VALIDADO', 'FALLIDO']),
      ),
    )
    .orderBy(desc(contributorImports.createdAt))
    .limit(20);
  return rows.map(toImport);
}

/** Status and progress of an upload. */
export async function getImport(opts: { db: Db; actor: Actor; id: string }) {
  return toImport(await loadImport(opts.db, opts.actor, opts.id));
}

/** One page of the valid rows or the exceptions of an upload. */
export async function findImportRows(opts: {
  db: Db;
  actor: Actor;
  id: string;
  query: { kind: 'valid' | 'error'; page: number; pageSize: number };
}) {
  const { db, query } = opts;
  await loadImport(db, opts.actor, opts.id);
  const cond = and(eq(contributorImportRows.importId, opts.id), eq(contributorImportRows.isValid, query.kind === 'valid'));
  const { limit, offset } = pageOf(query);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(contributorImportRows).where(cond).orderBy(asc(contributorImportRows.rowNumber)).limit(limit).offset(offset),
    db.select({ total: count() }).from(contributorImportRows).where(cond),
  ]);
  return {
    items: rows.map((r) => {
      const d = (r.data ?? r.raw ?? {}) as Record<string, string | null>;
      return {
        rowNumber: r.rowNumber,
        cui: r.cui,
        name: contributorFullName({
          firstName: d.firstName ?? '',
          secondName: d.secondName,
          thirdName: d.thirdName,
          firstSurname: d.firstSurname ?? '',
          secondSurname: d.secondSurname,
          marriedSurname: d.marriedSurname,
        }),
        errors: (r.errors as ImportRowError[] | null) ?? [],
      };
    }),
    total,
  };
}

/** Exceptions as they were read, with their reasons: the file the uploader fixes and uploads again. */
export interface ExceptionRow {
  rowNumber: number;
  raw: ImportRawRow;
  errors: ImportRowError[];
}

export function exceptionRowBatches(db: Db, id: string) {
  const byRow = { column: contributorImportRows.rowNumber, id: contributorImportRows.rowNumber, descending: false };
  return keysetBatches(
    byRow,
    (c) => exceptionRowsChunk(db, id, c),
    (r) => r.rowNumber,
  );
}

async function exceptionRowsChunk(db: Db, id: string, c: KeysetChunk): Promise<ExceptionRow[]> {
  const rows = await db
    .select({ rowNumber: contributorImportRows.rowNumber, raw: contributorImportRows.raw, errors: contributorImportRows.errors })
    .from(contributorImportRows)
    .where(and(eq(contributorImportRows.importId, id), eq(contributorImportRows.isValid, false), c.after))
    .orderBy(...c.order)
    .limit(c.limit);
  return rows.map((r) => ({
    rowNumber: r.rowNumber,
    raw: (r.raw ?? {}) as ImportRawRow,
    errors: (r.errors ?? []) as ImportRowError[],
  }));
}

export { loadImport };

/**
 * Commits the valid rows of a validated upload in ONE transaction: every contributor, its CUI
 * approval request and its audit row, or nothing. A CUI registered since the validation aborts the
 * whole commit (409 naming the rows). Runs in SQL from the stored rows: no re-upload, no row data
 * through Node. Callers: contributor-bulk-upload CREATE (the uploader).
 */
export async function commitImport(opts: { db: Db; actor: Actor; id: string }) {
  const { db, actor, id } = opts;
  await loadImport(db, actor, id);
  await db.transaction(async (tx) => {
    const [imp] = await tx.select().from(contributorImports).where(eq(contributorImports.id, id)).for('update');
    if (imp.status !== 'VALIDADO') {
      throw new AppError(
        'CONFLICT',
        imp.status === 'CONFIRMADO' ? 'Esta carga ya fue confirmada.' : 'La carga no está lista para confirmarse.',
      );
    }
    if (imp.validRows === 0) throw new AppError('CONFLICT', 'La carga no tiene filas válidas que confirmar.');
    const conflicts = await tx.execute<{ row_number: number; cui: string }>(sql`
      select r.row_number, r.cui from ${contributorImportRows} r
      join ${contributors} c on c.cui = r.cui
      where r.import_id = ${id}::uuid and r.is_valid order by r.row_number limit 20`);
    const conflictRows = (conflicts as unknown as { rows: { row_number: number; cui: string }[] }).rows;
    if (conflictRows.length) {
      throw new AppError(
        'CONFLICT',
        'Desde la validación se registraron afiliados con CUIs de este archivo; vuelva a cargarlo. No se guardó ninguna fila.',
        conflictRows.map((r) => ({ path: 'CUI', row: r.row_number, message: `El CUI ${r.cui} ya existe.` })),
      );
    }
    await tx.execute(sql`
      insert into ${contributors} (cui, nit, first_name, second_name, third_name, first_surname, second_surname, married_surname,
        search_name, birth_date, sex, marital_status, address, municipality_id, phone, email, type_id, state, entity_id,
        budget_line_code, hire_date, salary, cui_state, import_id, created_by)
      select d.cui, d.nit, d."firstName", d."secondName", d."thirdName", d."firstSurname", d."secondSurname", d."marriedSurname",
        d."searchName", d."birthDate", d.sex, d."maritalStatus", d.address, d."municipalityId", d.phone, d.email, d."typeId",
        coalesce(d.state, 'ACTIVO'), d."entityId", d."budgetLineCode", d."hireDate", d.salary, 'PENDIENTE', ${id}::uuid, ${actor.id}
      from ${contributorImportRows} r,
        jsonb_to_record(r.data) as d(cui text, nit text, "firstName" text, "secondName" text, "thirdName" text,
          "firstSurname" text, "secondSurname" text, "marriedSurname" text, "searchName" text, "birthDate" date, sex text,
          "maritalStatus" text, address text, "municipalityId" int, phone text, email text, "typeId" int, state text,
          "entityId" int, "budgetLineCode" text, "hireDate" date, salary numeric)
      where r.import_id = ${id}::uuid and r.is_valid
      order by r.row_number`);
    await tx.execute(sql`
      insert into cui_approval_requests (contributor_id, kind, proposed_cui, requested_by)
      select c.id, 'ALTA', c.cui, ${actor.id} from ${contributors} c where c.import_id = ${id}::uuid`);
    await tx.execute(sql`
      insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, after, ip, scope_entity_id)
      select ${actor.id}, ${actor.email}, 'CREATE', 'contributor', c.id::text,
        jsonb_build_object('cui', c.cui, 'importId', ${id}::text, 'origen', 'carga masiva'), ${actor.ip ?? null}, c.entity_id
      from ${contributors} c where c.import_id = ${id}::uuid`);
    const [{ n }] = await tx.select({ n: count() }).from(contributors).where(eq(contributors.importId, id));
    await tx
      .update(contributorImports)
      .set({ status: 'CONFIRMADO', committedRows: n, committedAt: new Date(), committedBy: actor.id })
      .where(eq(contributorImports.id, id));
    await writeAudit(tx, actor, {
      action: 'IMPORT_COMMIT',
      entityType: 'contributor_import',
      entityId: id,
      after: { committedRows: n },
    });
  });
  // The embedded database has no autovacuum: without fresh statistics after thousands of new rows the
  // planner misjudges the contributor lists and exports (bench/README.md, export-health). ANALYZE samples,
  // so it stays short, and it runs outside the commit's transaction.
  await db.execute(sql`analyze ${contributors}`);
  return getImport({ db, actor, id });
}

/** What an upload interrupted by a restart says: its validation never finished. */
export const INTERRUPTED_IMPORT_MESSAGE =
  'El proceso se interrumpió (reinicio del servidor) antes de terminar la validación. Descarte esta carga y vuelva a cargar el archivo.';

/**
 * At start-up: an upload still VALIDANDO was being validated by a process that no longer exists
 * (killed, restarted): it is marked FALLIDO with the reason, its partial rows deleted, so its uploader
 * sees why and can discard it. Runs before the server listens (one API process per database, as
 * PGlite requires and the README deploys). Returns the ids it marked.
 */
export async function recoverInterruptedImports(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    const marked = await tx
      .update(contributorImports)
      .set({ status: 'FALLIDO', message: INTERRUPTED_IMPORT_MESSAGE })
      .where(eq(contributorImports.status, 'VALIDANDO'))
      .returning({ id: contributorImports.id });
    const ids = marked.map((m) => m.id);
    if (ids.length) await tx.delete(contributorImportRows).where(inArray(contributorImportRows.importId, ids));
    return ids;
  });
}

/** Discards a validated or failed upload: its stored rows are deleted (nothing was committed). */
export async function discardImport(opts: { db: Db; actor: Actor; id: string }) {
  const imp = await loadImport(opts.db, opts.actor, opts.id);
  if (imp.status === 'CONFIRMADO') throw new AppError('CONFLICT', 'Esta carga ya fue confirmada.');
  if (imp.status === 'VALIDANDO') throw new AppError('CONFLICT', 'La carga aún se está validando; espere a que termine.');
  await opts.db.transaction(async (tx) => {
    await tx.delete(contributorImportRows).where(eq(contributorImportRows.importId, opts.id));
    await tx.update(contributorImports).set({ status: 'DESCARTADO' }).where(eq(contributorImports.id, opts.id));
  });
  return getImport(opts);
}

/** Values allowed in the catalogue columns, for the template's instructions sheet. */
export async function templateCatalogues(db: Db) {
  const [types, lines] = await Promise.all([
    db
      .select({ code: contributorTypes.code, name: contributorTypes.name })
      .from(contributorTypes)
      .where(eq(contributorTypes.isActive, true))
      .orderBy(contributorTypes.sortOrder),
    db
      .select({ code: budgetLines.code, name: budgetLines.name })
      .from(budgetLines)
      .where(eq(budgetLines.isActive, true))
      .orderBy(budgetLines.code),
  ]);
  return { types, lines };
}
