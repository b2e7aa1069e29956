import {
  AppError,
  type ContributorData,
  contributorSearchName,
  detail,
  type ImportCatalogues,
  type ImportColumnKey,
  type ImportRowError,
  importColumns,
  msg,
  validateImportRow,
} from '@aporta/domain';
import { eq, sql } from 'drizzle-orm';
import {
  budgetLines,
  contributors,
  contributorTypes,
  importRows,
  municipalEntities,
  municipalities,
} from '../../db/schema/index.ts';
import { analyzeIfStale } from '../../db/statistics.ts';
import { defineImportKind } from '../../platform/imports/kind.ts';
import { scopedEntityIdSet } from '../../platform/scope.ts';

/** Same words as a contributor form's refusal: a CUI held outside the caller's scope is not named. */
const OUT_OF_SCOPE_CUI = msg('contributors.cuiOutOfScope');

interface Lookups {
  catalogues: ImportCatalogues;
  /** The uploader's writable entities; null for scope ALL. */
  allowed: ReadonlySet<number> | null;
}

/** CUIs of the chunk already registered: their contributor and entity. */
type Existing = Map<string, { id: number; entityId: number | null }>;

type Row = ContributorData & { searchName: string };

const cuiOf = (text: string | undefined) => (text ?? '').replace(/[\s-]/g, '');

/**
 * Contributors' bulk upload on the one import pipeline: the template's columns, the form's own rules
 * per row (validateImportRow), registered CUIs found chunk by chunk, and a commit of three
 * INSERT … SELECT from the staged rows (contributors, their CUI approval requests, their audit rows).
 */
export const contributorImportKind = defineImportKind<ImportColumnKey, Row, Lookups, Existing>({
  kind: 'contributors',
  resource: 'contributor-bulk-upload',
  auditEntityType: 'contributor_import',
  columns: importColumns,

  async prepare(ctx) {
    const { db } = ctx;
    if (!ctx.scope) throw new AppError('FORBIDDEN');
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
      scopedEntityIdSet(db, ctx.user.id, ctx.scope),
    ]);
    return {
      catalogues: {
        municipalities: new Map(munis.map((m) => [m.code, m.id])),
        types: new Map(types.map((t) => [t.code.toUpperCase(), t.id])),
        entities: new Map(entities.map((e) => [e.code.toUpperCase(), e.id])),
        budgetLines: new Set(lines.map((l) => l.code)),
        allowedEntityIds: allowed,
      },
      allowed,
    };
  },

  async prefetch(ctx, rows) {
    const cuis = [...new Set(rows.map((r) => cuiOf(r.values.cui)).filter((c) => /^\d{13}$/.test(c)))];
    if (!cuis.length) return new Map();
    const taken = await ctx.db
      .select({ cui: contributors.cui, id: contributors.id, entityId: contributors.entityId })
      .from(contributors)
      // One text parameter, not a thousand (CUIs here are 13 digits, so a comma separates them safely).
      .where(sql`${contributors.cui} = any(string_to_array(${cuis.join(',')}, ','))`);
    return new Map(taken.map((t) => [t.cui, { id: t.id, entityId: t.entityId }]));
  },

  validateRow(row, { catalogues, allowed }, existing) {
    const result = validateImportRow(row.values, catalogues, row.numberCells);
    const key = result.ok ? result.data.cui : cuiOf(row.values.cui).slice(0, 20);
    if (!result.ok) return { key, errors: result.errors };
    const errors: ImportRowError[] = [];
    // As in the form: a scoped user never saves a contributor that would leave everyone's scope.
    if (allowed && result.data.entityId == null) {
      errors.push({ column: 'ENTIDAD', ...detail(msg('contributors.importEntityRequired')) });
    }
    const taken = existing.get(result.data.cui);
    if (taken) {
      const hidden = allowed && (taken.entityId == null || !allowed.has(taken.entityId));
      errors.push({ column: 'CUI', ...detail(hidden ? OUT_OF_SCOPE_CUI : msg('contributors.importCuiTaken', { id: taken.id })) });
    }
    if (errors.length) return { key, errors };
    return {
      key,
      entityId: result.data.entityId ?? null,
      data: { ...result.data, searchName: contributorSearchName(result.data) },
      errors,
    };
  },

  uniqueKey: { column: 'cui', message: (first) => msg('contributors.importCuiRepeated', { row: first }).text },

  // A CUI registered since the validation (the unique index would refuse it mid-insert): nothing is
  // written, and the rows are named.
  async checkCommit(_ctx, db, batch) {
    const conflicts = await db.execute<{ row_number: number; cui: string }>(sql`
      select r.row_number, r.key as cui from ${importRows} r
      join ${contributors} c on c.cui = r.key
      where r.batch_id = ${batch.id}::uuid and r.is_valid order by r.row_number limit 20`);
    const conflictRows = (conflicts as unknown as { rows: { row_number: number; cui: string }[] }).rows;
    if (conflictRows.length) {
      throw new AppError(
        'CONFLICT',
        msg('contributors.importCuisTakenSinceValidation'),
        conflictRows.map((r) => ({
          path: 'CUI',
          row: r.row_number,
          ...detail(msg('contributors.importCuiExists', { cui: r.cui })),
        })),
      );
    }
  },

  // One statement: the contributors, their CUI approval requests and their audit rows from the rows the
  // insert returns (no second pass over contributors to find what was just written).
  async commit(ctx, tx, batch) {
    const { actor } = ctx;
    const id = batch.id;
    const n = await tx.execute<{ n: number }>(sql`
      with inserted as (
        insert into ${contributors} (cui, nit, first_name, second_name, third_name, first_surname, second_surname, married_surname,
          search_name, birth_date, sex, marital_status, address, municipality_id, phone, email, type_id, state, entity_id,
          budget_line_code, hire_date, salary, cui_state, import_id, created_by)
        select d.cui, d.nit, d."firstName", d."secondName", d."thirdName", d."firstSurname", d."secondSurname", d."marriedSurname",
          d."searchName", d."birthDate", d.sex, d."maritalStatus", d.address, d."municipalityId", d.phone, d.email, d."typeId",
          coalesce(d.state, 'ACTIVO'), d."entityId", d."budgetLineCode", d."hireDate", d.salary, 'PENDIENTE', ${id}::uuid, ${actor.id}
        from ${importRows} r,
          jsonb_to_record(r.data) as d(cui text, nit text, "firstName" text, "secondName" text, "thirdName" text,
            "firstSurname" text, "secondSurname" text, "marriedSurname" text, "searchName" text, "birthDate" date, sex text,
            "maritalStatus" text, address text, "municipalityId" int, phone text, email text, "typeId" int, state text,
            "entityId" int, "budgetLineCode" text, "hireDate" date, salary numeric)
        where r.batch_id = ${id}::uuid and r.is_valid
        order by r.row_number
        returning id, cui, entity_id
      ),
      requests as (
        insert into cui_approval_requests (contributor_id, kind, proposed_cui, requested_by)
        select i.id, 'ALTA', i.cui, ${actor.id} from inserted i
      ),
      audited as (
        insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, after, ip, scope_entity_id)
        select ${actor.id}, ${actor.email}, 'CREATE', 'contributor', i.id::text,
          jsonb_build_object('cui', i.cui, 'importId', ${id}::text, 'origen', 'carga masiva'), ${actor.ip ?? null}, i.entity_id
        from inserted i
      )
      select count(*)::int as n from inserted`);
    return Number((n as unknown as { rows: { n: number }[] }).rows[0].n);
  },

  // The embedded database has no autovacuum: without fresh statistics after thousands of new rows the
  // planner misjudges the contributor lists and exports (bench/README.md, export-health). ANALYZE samples,
  // so it stays short, and it runs outside the commit's transaction, once enough rows changed since the last.
  async afterCommit(ctx) {
    await analyzeIfStale(ctx.db, contributors);
  },
});
