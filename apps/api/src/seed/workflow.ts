import type { FlowDefinition, FormField, Scope } from '@aporta/domain';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { contributors, institutions, pensions, roles, users, wfForms } from '../db/schema/index.ts';
import { registerPensionWorkflowActions } from '../modules/pensions/workflow-actions.ts';
import { createFlow, publishFlow } from '../modules/workflow/flows.ts';
import { createForm, publishForm } from '../modules/workflow/forms.ts';
import { transitionRequest } from '../modules/workflow/request-transition.ts';
import { createRequest } from '../modules/workflow/requests.ts';
import { createContext, type RequestContext, systemContext } from '../platform/context.ts';
import type { FileStore } from '../platform/files.ts';
import { loadCurrentUser } from '../platform/session.ts';

/** The form of «Solicitud de jubilación»: what the pensions module's action needs, plus supporting data. */
export const jubilacionFields: FormField[] = [
  { name: 'secAfiliado', label: 'Datos del afiliado', type: 'section' },
  { name: 'cui', label: 'CUI del afiliado', type: 'cui', required: true },
  { name: 'telefono', label: 'Teléfono de contacto', type: 'text', maxLength: 20, pattern: '^[0-9 +-]{8,20}$' },
  { name: 'secPension', label: 'Pensión solicitada', type: 'section' },
  { name: 'fechaInicio', label: 'Fecha de inicio solicitada', type: 'date', required: true },
  { name: 'montoMensual', label: 'Monto mensual (según dictamen)', type: 'money', required: true },
  { name: 'cuentaBancaria', label: 'Cuenta bancaria', type: 'text', required: true, pattern: '^[0-9][0-9-]{4,28}[0-9]$' },
  {
    name: 'tieneBeneficiarios',
    label: '¿Declara beneficiarios?',
    type: 'select',
    required: true,
    options: [
      { value: 'NO', label: 'No' },
      { value: 'SI', label: 'Sí' },
    ],
  },
  {
    name: 'beneficiarios',
    label: 'Beneficiarios',
    type: 'table',
    required: true,
    visibleIf: { field: 'tieneBeneficiarios', equals: 'SI' },
    columns: [
      { name: 'nombre', label: 'Nombre completo', type: 'text', required: true },
      { name: 'parentesco', label: 'Parentesco', type: 'text', required: true },
    ],
  },
  { name: 'documentoDpi', label: 'Copia del DPI (PDF o imagen)', type: 'file' },
];

export const constanciaFields: FormField[] = [
  { name: 'cui', label: 'CUI del solicitante', type: 'cui', required: true },
  {
    name: 'tipo',
    label: 'Tipo de constancia',
    type: 'select',
    required: true,
    options: [
      { value: 'AFILIACION', label: 'Constancia de afiliación' },
      { value: 'CUOTAS', label: 'Constancia de cuotas pagadas' },
      { value: 'PENSION', label: 'Constancia de pensión' },
    ],
  },
  { name: 'destino', label: 'Institución a la que se presenta', type: 'text', required: true, maxLength: 120 },
];

/** The final actions: the pensions module's action, and a PDF constancia. */
const createPensionAction = { kind: 'module', module: 'create-pension' } as const;
const constanciaPdf = { kind: 'document' } as const;

function jubilacionFlow(r: Record<'receptor' | 'revisor' | 'aprobador', number>): FlowDefinition {
  return {
    initial: 'RECEPCION',
    states: [
      { key: 'RECEPCION', label: 'Recepción', editable: true, slaDays: 2, x: 0, y: 120 },
      { key: 'REVISION', label: 'Revisión', slaDays: 5, x: 240, y: 120 },
      { key: 'OBSERVADA', label: 'Observada', editable: true, slaDays: 10, x: 240, y: 280 },
      { key: 'DICTAMEN', label: 'Dictamen', slaDays: 10, x: 480, y: 120 },
      { key: 'RESOLUCION', label: 'Resolución', slaDays: 5, x: 720, y: 120 },
      { key: 'APROBADA', label: 'Pensión otorgada', x: 960, y: 40 },
      { key: 'DENEGADA', label: 'Denegada', x: 960, y: 220 },
    ],
    transitions: [
      { key: 'ENVIAR_REVISION', from: 'RECEPCION', to: 'REVISION', label: 'Enviar a revisión', roleId: r.receptor },
      { key: 'OBSERVAR', from: 'REVISION', to: 'OBSERVADA', label: 'Observar', roleId: r.revisor, commentRequired: true },
      { key: 'CORREGIR', from: 'OBSERVADA', to: 'REVISION', label: 'Corregir y reenviar', requester: true },
      { key: 'PASAR_DICTAMEN', from: 'REVISION', to: 'DICTAMEN', label: 'Pasar a dictamen', roleId: r.revisor },
      {
        key: 'DICTAMINAR',
        from: 'DICTAMEN',
        to: 'RESOLUCION',
        label: 'Emitir dictamen',
        roleId: r.revisor,
        commentRequired: true,
      },
      {
        key: 'APROBAR',
        from: 'RESOLUCION',
        to: 'APROBADA',
        label: 'Aprobar y otorgar la pensión',
        roleId: r.aprobador,
        action: createPensionAction,
      },
      { key: 'DENEGAR', from: 'RESOLUCION', to: 'DENEGADA', label: 'Denegar', roleId: r.aprobador, commentRequired: true },
    ],
  };
}

function constanciaFlow(r: Record<'receptor' | 'revisor' | 'aprobador', number>): FlowDefinition {
  return {
    initial: 'SOLICITADA',
    states: [
      { key: 'SOLICITADA', label: 'Solicitada', editable: true, slaDays: 3, x: 0, y: 100 },
      { key: 'EMITIDA', label: 'Emitida', x: 280, y: 20 },
      { key: 'RECHAZADA', label: 'Rechazada', x: 280, y: 200 },
    ],
    transitions: [
      {
        key: 'EMITIR',
        from: 'SOLICITADA',
        to: 'EMITIDA',
        label: 'Emitir constancia',
        roleId: r.receptor,
        action: constanciaPdf,
      },
      { key: 'RECHAZAR', from: 'SOLICITADA', to: 'RECHAZADA', label: 'Rechazar', roleId: r.receptor, commentRequired: true },
    ],
  };
}

/** A demo user seen as the API sees a signed-in user, through the permission of the route it would call. */
async function contextOf(db: Db, email: string, resource: 'sig-items', action: 'CREATE' | 'UPDATE'): Promise<RequestContext> {
  const [u] = await db.select().from(users).where(eq(users.email, email));
  if (!u) throw new Error(`Usuario de demostración ausente: ${email}`);
  const user = await loadCurrentUser(db, u);
  const scope = (user.permissions[resource]?.[action] ?? null) as Scope | null;
  return createContext({ db, user, actor: { id: u.id, email: u.email, ip: null }, scope });
}

/**
 * Demo workflow (DEMO_DATA only, while no form exists): the forms and flows «Solicitud de jubilación»
 * and «Constancia», published, and requests of the Municipalidad de Mixco's clerk in every state,
 * moved by the demo receptor, reviewer and approver through the same services the screens call (the
 * approved jubilación creates its pension through the pensions module's action).
 */
export async function seedWorkflowDemo(db: Db, files: FileStore, appTitle: string): Promise<void> {
  // The module action the jubilación flow ends with: the seed may run before any routes are registered.
  registerPensionWorkflowActions();
  const [{ n }] = await db.select({ n: count() }).from(wfForms);
  if (n > 0) return;
  const roleIds = Object.fromEntries(
    (
      await db
        .select({ id: roles.id, name: roles.name })
        .from(roles)
        .where(inArray(roles.name, ['Receptor de solicitudes', 'Revisor de solicitudes', 'Aprobador de solicitudes']))
    ).map((r) => [r.name, r.id]),
  );
  const r = {
    receptor: roleIds['Receptor de solicitudes'],
    revisor: roleIds['Revisor de solicitudes'],
    aprobador: roleIds['Aprobador de solicitudes'],
  };
  if (!r.receptor || !r.revisor || !r.aprobador) return;
  const sys = systemContext(db);
  const published = async (title: string, description: string, fields: FormField[], def: FlowDefinition) => {
    const form = await createForm(sys, { title, description, fields });
    await publishForm(sys, { id: form.id, version: 1 });
    const flow = await createFlow(sys, { title, description, formId: form.id, definition: def });
    await publishFlow(sys, { id: flow.id, version: 1 });
    return flow.id;
  };
  const jubilacion = await published(
    'Solicitud de jubilación',
    'Recepción, revisión, dictamen y resolución; al aprobarse se otorga la pensión.',
    jubilacionFields,
    jubilacionFlow(r),
  );
  const constancia = await published(
    'Constancia',
    'Constancias de afiliación, cuotas o pensión.',
    constanciaFields,
    constanciaFlow(r),
  );

  const [mixco] = await db
    .select({ entityId: institutions.entityId })
    .from(institutions)
    .where(eq(institutions.code, 'MUNI-0108'));
  const entityId = mixco?.entityId ?? null;
  const [hasClerk] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'operador@demo.aporta.local'));
  if (!entityId || !hasClerk) return;
  const clerk = await contextOf(db, 'operador@demo.aporta.local', 'sig-items', 'CREATE');
  const clerkU = await contextOf(db, 'operador@demo.aporta.local', 'sig-items', 'UPDATE');
  const receptor = await contextOf(db, 'recepcion.sig@demo.aporta.local', 'sig-items', 'UPDATE');
  const revisor = await contextOf(db, 'revisor.sig@demo.aporta.local', 'sig-items', 'UPDATE');
  const aprobador = await contextOf(db, 'aprobador.sig@demo.aporta.local', 'sig-items', 'UPDATE');
  const env = { files, appTitle };
  const move = (ctx: RequestContext, id: number, to: string, comment?: string) =>
    transitionRequest(ctx, env, { id, to, comment });

  // Contributors without a pension, those of Mixco first: the people who ask to retire.
  const people = await db
    .select({ cui: contributors.cui })
    .from(contributors)
    .leftJoin(pensions, eq(pensions.contributorId, contributors.id))
    .where(and(isNull(pensions.id), sql`${contributors.cui} is not null`))
    .orderBy(sql`${contributors.entityId} = ${entityId} desc`, asc(contributors.id))
    .limit(8);
  const paths: [string, ...[RequestContext, string, string?][]][] = [
    ['RECEPCION'],
    ['REVISION', [receptor, 'REVISION']],
    ['OBSERVADA', [receptor, 'REVISION'], [revisor, 'OBSERVADA', 'Falta la copia del DPI; adjúntela y reenvíe.']],
    ['DICTAMEN', [receptor, 'REVISION'], [revisor, 'DICTAMEN']],
    ['RESOLUCION', [receptor, 'REVISION'], [revisor, 'DICTAMEN'], [revisor, 'RESOLUCION', 'Cumple el tiempo de servicio.']],
    [
      'APROBADA',
      [receptor, 'REVISION'],
      [revisor, 'OBSERVADA', 'Confirme la cuenta bancaria.'],
      [clerkU, 'REVISION'],
      [revisor, 'DICTAMEN'],
      [revisor, 'RESOLUCION', 'Procede la jubilación.'],
      [aprobador, 'APROBADA'],
    ],
    [
      'DENEGADA',
      [receptor, 'REVISION'],
      [revisor, 'DICTAMEN'],
      [revisor, 'RESOLUCION', 'No cumple la edad.'],
      [aprobador, 'DENEGADA', 'No alcanza la edad de jubilación.'],
    ],
  ];
  for (const [i, [, ...steps]] of paths.entries()) {
    const cui = people[i]?.cui;
    if (!cui) break;
    const req = await createRequest(clerk, {
      flowId: jubilacion,
      entityId,
      data: {
        cui,
        telefono: '5555 0000',
        fechaInicio: '2026-07-01',
        montoMensual: `${2500 + i * 125}.00`,
        cuentaBancaria: `3010-10000${i}-1`,
        tieneBeneficiarios: 'NO',
      },
    });
    for (const [ctx, to, comment] of steps) await move(ctx, req.id, to, comment);
  }
  const constancias: [string, string, ...[RequestContext, string, string?][]][] = [
    ['AFILIACION', 'Banco de Desarrollo Rural'],
    ['CUOTAS', 'Superintendencia de Administración Tributaria', [receptor, 'EMITIDA']],
    ['PENSION', 'Juzgado de Familia', [receptor, 'RECHAZADA', 'La persona no tiene pensión.']],
  ];
  for (const [i, [tipo, destino, ...steps]] of constancias.entries()) {
    const cui = people[i]?.cui;
    if (!cui) break;
    const req = await createRequest(clerk, { flowId: constancia, entityId, data: { cui, tipo, destino } });
    for (const [ctx, to, comment] of steps) await move(ctx, req.id, to, comment);
  }
}
