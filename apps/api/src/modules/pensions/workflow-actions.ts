/** What the pensions module lets a workflow do: the action that ends «Solicitud de jubilación». */
import { AppError, guatemalaToday, msg, pensionInputSchema } from '@aporta/domain';
import { createContext } from '../../platform/context.ts';
import { registerModuleAction } from '../workflow/actions.ts';
import { createPension } from './pension-changes.ts';

let registered = false;

/**
 * Registers the action; called by the module's routes plugin and by the workflow seed, which may run
 * without the routes (again: nothing happens).
 */
export function registerPensionWorkflowActions(): void {
  if (registered) return;
  registered = true;
  /**
   * "Crear pensión de jubilación": the final action of the flow «Solicitud de jubilación». The request's
   * data names the contributor (`cui`), the start date (`fechaInicio`), the monthly amount of the
   * dictamen (`montoMensual`), the bank account (`cuentaBancaria`) and, optionally, the resolution
   * (`resolucion`, else the request's number). The pension is created by the one rule of this module
   * (createPension), as whoever approves — who must also hold Clases pasivas CREATE, whose scope applies.
   */
  registerModuleAction({
    key: 'create-pension',
    label: 'Crear pensión de jubilación',
    async run(ctx, request) {
      const scope = ctx.scopeFor('passive-classes', 'CREATE');
      if (!scope) {
        throw new AppError('FORBIDDEN', msg('pensions.createPensionPermission'));
      }
      const d = request.data;
      const today = guatemalaToday();
      const parsed = pensionInputSchema.safeParse({
        cui: d.cui,
        type: 'JUBILACION',
        resolutionNumber: typeof d.resolucion === 'string' && d.resolucion ? d.resolucion : request.number,
        resolutionDate: today,
        startDate: typeof d.fechaInicio === 'string' && d.fechaInicio > today ? d.fechaInicio : today,
        monthlyAmount: d.montoMensual,
        bankAccount: d.cuentaBancaria,
      });
      if (!parsed.success) {
        const details = parsed.error.issues.map((i) => ({ path: `data.${i.path.join('.')}`, message: i.message }));
        throw new AppError(
          'VALIDATION',
          msg('pensions.cannotCreatePension', { reasons: details.map((x) => x.message).join(' ') }),
          details,
        );
      }
      const pctx = createContext({ db: ctx.db, user: ctx.user, actor: ctx.actor, sessionId: ctx.sessionId, scope });
      const pension = await createPension(pctx, parsed.data);
      return { label: `Pensión de jubilación de ${pension.fullName}`, link: `/contributors/passive-classes/${pension.id}` };
    },
  });
}
