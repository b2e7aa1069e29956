import type { FlowDefinition, FormCatalog, FormField } from '@aporta/domain';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  budgetLines,
  classifications,
  departments,
  municipalEntities,
  regions,
  wfFlows,
  wfFlowVersions,
  wfFormVersions,
} from '../../db/schema/index.ts';
import type { RequestContext } from '../../platform/context.ts';
import { entityInScope } from '../../platform/scope.ts';

/** The choices of the request forms: flows the user may start, and the rows of the catalogues a form field names. */

// ─── Options ───────────────────────────────────────────────────────────────────────────────────────

/** Published flows (with their form's published version) and the entities a new request may name. Callers: sig-items READ. */
export async function sigOptions(ctx: RequestContext, opts: { withForms: boolean }) {
  const flows = await ctx.db
    .select({ id: wfFlows.id, title: wfFlows.title, formId: wfFlows.formId, definition: wfFlowVersions.definition })
    .from(wfFlows)
    .innerJoin(wfFlowVersions, and(eq(wfFlowVersions.flowId, wfFlows.id), eq(wfFlowVersions.state, 'PUBLICADA')))
    .orderBy(asc(wfFlows.title));
  const out = [];
  for (const f of flows) {
    const def = f.definition as FlowDefinition;
    const base = { id: f.id, title: f.title, states: def.states.map((s) => ({ key: s.key, label: s.label })) };
    if (!opts.withForms) {
      out.push(base);
      continue;
    }
    const [v] = await ctx.db
      .select()
      .from(wfFormVersions)
      .where(and(eq(wfFormVersions.formId, f.formId), eq(wfFormVersions.state, 'PUBLICADA')))
      .orderBy(desc(wfFormVersions.version))
      .limit(1);
    if (!v) continue;
    out.push({
      ...base,
      schema: v.schema as Record<string, unknown>,
      uiSchema: v.uiSchema as Record<string, unknown>,
      fields: (v.fields as FormField[] | null) ?? null,
    });
  }
  const createScope = ctx.scopeFor('sig-items', 'CREATE');
  const entities = createScope
    ? await ctx.db
        .select({ id: municipalEntities.id, name: municipalEntities.name })
        .from(municipalEntities)
        .where(and(eq(municipalEntities.isActive, true), entityInScope(ctx.user.id, createScope, municipalEntities.id)))
        .orderBy(asc(municipalEntities.name))
        .limit(500)
    : [];
  return { flows: out, entities, anyEntity: createScope === 'ALL' };
}

const catalogTables = { departments, regions, 'budget-lines': budgetLines, classifications } as const;

/** The code and label of a catalogue's rows (every one has `code` and `name`). */
export async function catalogRows(db: Db, catalog: FormCatalog, code?: string) {
  const t = catalogTables[catalog];
  return rowsOf<{ value: string; label: string }>(
    await db.execute(sql`select ${t.code}::text as value, ${t.code} || ' — ' || ${t.name} as label from ${t}
      ${code === undefined ? sql`` : sql`where ${t.code}::text = ${code}`} order by ${t.code} limit 1000`),
  );
}

/** The options of a catalogue a form's select uses (reference data). Callers: any signed-in user. */
export async function catalogOptions(ctx: RequestContext, catalog: FormCatalog) {
  return { items: (await catalogRows(ctx.db, catalog)).map((r) => ({ value: String(r.value), label: String(r.label) })) };
}
