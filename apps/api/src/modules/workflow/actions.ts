import type { RequestContext } from '../../platform/context.ts';

/**
 * Module actions a flow's transition may call ("crear pensión"): registered by code from the module
 * that owns the rule, so the workflow module never restates another module's rules. `run` receives the
 * caller's context whose `db` is the transition's transaction: the action and the move commit together,
 * and an action that throws leaves the request where it was.
 */
export interface ModuleAction {
  key: string;
  label: string;
  run(
    ctx: RequestContext,
    request: { id: number; number: string; data: Record<string, unknown>; entityId: number | null; requesterId: number | null },
  ): Promise<{ label: string; link: string } | undefined>;
}

const actions = new Map<string, ModuleAction>();

export function registerModuleAction(action: ModuleAction): void {
  if (actions.has(action.key)) throw new Error(`Acción de módulo repetida: ${action.key}`);
  actions.set(action.key, action);
}

export const moduleAction = (key: string) => actions.get(key);
export const moduleActions = () => [...actions.values()].map((a) => ({ key: a.key, label: a.label }));
