import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cuiApprovalMachine, cuiDecisionSchema } from './contributors.ts';
import { AppError } from './errors.ts';
import { allPermissions, type Grant, mergeGrants, scopes } from './permissions.ts';
import {
  allowedTransitions,
  checkTransition,
  defineMachine,
  findTransition,
  isFinalState,
  transitionRequestSchemaFor,
} from './state-machine.ts';

/**
 * The planilla lifecycle of DOMAIN.md, declared here only to prove the declaration expresses it
 * (several `from`, a reason to void, a resubmission after observations). The planillas module will
 * declare its own.
 */
const planillaStates = ['BORRADOR', 'ENVIADA', 'EN_REVISION', 'APROBADA', 'OBSERVADA', 'RECHAZADA', 'PAGADA', 'ANULADA'] as const;
const planilla = defineMachine({
  entityType: 'planilla',
  label: 'La planilla',
  states: planillaStates,
  stateLabels: {
    BORRADOR: 'Borrador',
    ENVIADA: 'Enviada',
    EN_REVISION: 'En revisión',
    APROBADA: 'Aprobada',
    OBSERVADA: 'Observada',
    RECHAZADA: 'Rechazada',
    PAGADA: 'Pagada',
    ANULADA: 'Anulada',
  },
  initial: 'BORRADOR',
  transitions: [
    {
      key: 'PLANILLA_SUBMIT',
      from: ['BORRADOR', 'OBSERVADA'],
      to: 'ENVIADA',
      label: 'Enviar',
      permission: { resource: 'planillas', action: 'UPDATE' },
      commentRequired: false,
    },
    {
      key: 'PLANILLA_TAKE',
      from: 'ENVIADA',
      to: 'EN_REVISION',
      label: 'Tomar para revisión',
      permission: { resource: 'delegate-review', action: 'APPROVE' },
      commentRequired: false,
    },
    {
      key: 'PLANILLA_APPROVE',
      from: 'EN_REVISION',
      to: 'APROBADA',
      label: 'Aprobar',
      permission: { resource: 'delegate-review', action: 'APPROVE' },
      commentRequired: false,
      notByMaker: true,
    },
    {
      key: 'PLANILLA_OBSERVE',
      from: 'EN_REVISION',
      to: 'OBSERVADA',
      label: 'Observar',
      permission: { resource: 'delegate-review', action: 'APPROVE' },
      commentRequired: true,
    },
    {
      key: 'PLANILLA_REJECT',
      from: 'EN_REVISION',
      to: 'RECHAZADA',
      label: 'Rechazar',
      permission: { resource: 'delegate-review', action: 'APPROVE' },
      commentRequired: true,
    },
    {
      key: 'PLANILLA_PAY',
      from: 'APROBADA',
      to: 'PAGADA',
      label: 'Marcar pagada',
      permission: { resource: 'planilla-payments', action: 'CREATE' },
      commentRequired: false,
    },
    {
      key: 'PLANILLA_VOID',
      from: ['BORRADOR', 'ENVIADA', 'EN_REVISION', 'APROBADA', 'OBSERVADA', 'RECHAZADA'],
      to: 'ANULADA',
      label: 'Anular',
      permission: { resource: 'planillas', action: 'DELETE' },
      commentRequired: true,
    },
  ],
});
type PlanillaState = (typeof planillaStates)[number];

const state = fc.constantFrom(...planillaStates);
const grant = fc.record({
  resource: fc.constantFrom('planillas', 'delegate-review', 'planilla-payments', 'contributors'),
  action: fc.constantFrom('READ', 'UPDATE', 'APPROVE', 'CREATE', 'DELETE'),
  scope: fc.constantFrom(...scopes),
}) as fc.Arbitrary<Grant>;
const perms = fc.array(grant, { maxLength: 8 }).map(mergeGrants);
const ids = fc.option(fc.integer({ min: 1, max: 3 }), { nil: null });
const comment = fc.option(fc.oneof(fc.constant(''), fc.constant('   '), fc.string({ maxLength: 20 })), { nil: undefined });

const codeOf = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
};

describe('state machine declaration', () => {
  it('refuses a declaration with unknown states, repeated keys or an ambiguous (from, to) pair', () => {
    const base = {
      entityType: 'x',
      label: 'X',
      states: ['A', 'B'] as const,
      stateLabels: { A: 'A', B: 'B' },
      initial: 'A' as const,
    };
    const t = {
      key: 'T',
      from: 'A' as const,
      to: 'B' as const,
      label: 'T',
      permission: { resource: 'planillas', action: 'UPDATE' },
      commentRequired: false,
    } as const;
    expect(() => defineMachine({ ...base, transitions: [t, { ...t, key: 'U' }] })).toThrow(/dos transiciones van de A a B/);
    expect(() => defineMachine({ ...base, transitions: [t, { ...t, from: 'B', to: 'A' as const }] })).toThrow(/repetida/);
    expect(() => defineMachine({ ...base, transitions: [{ ...t, to: 'C' as never }] })).toThrow(/no declarado/);
    expect(() => defineMachine({ ...base, transitions: [{ ...t, to: 'A' }] })).toThrow(/a sí mismo/);
    expect(() => defineMachine({ ...base, initial: 'Z' as never, transitions: [t] })).toThrow(/inicial/);
  });

  it('expresses the planilla lifecycle: void from any state before PAGADA, resubmission after observations', () => {
    for (const s of planillaStates) {
      expect(!!findTransition(planilla, s, 'ANULADA')).toBe(s !== 'PAGADA' && s !== 'ANULADA');
    }
    expect(findTransition(planilla, 'OBSERVADA', 'ENVIADA')?.key).toBe('PLANILLA_SUBMIT');
    expect(isFinalState(planilla, 'PAGADA')).toBe(true);
    expect(isFinalState(planilla, 'ANULADA')).toBe(true);
    expect(isFinalState(planilla, 'RECHAZADA')).toBe(false);
  });

  it('declares the CUI request: a second person approves, a rejection needs a reason, both are final', () => {
    const all = allPermissions();
    expect(allowedTransitions(cuiApprovalMachine, 'PENDIENTE', all, { actorId: 1, makerId: 2 }).map((t) => t.to)).toEqual([
      'APROBADO',
      'RECHAZADO',
    ]);
    expect(allowedTransitions(cuiApprovalMachine, 'PENDIENTE', all, { actorId: 2, makerId: 2 })).toEqual([]);
    expect(allowedTransitions(cuiApprovalMachine, 'APROBADO', all, { actorId: 1 })).toEqual([]);
    expect(() =>
      checkTransition(cuiApprovalMachine, { from: 'PENDIENTE', to: 'APROBADO', permissions: all, actorId: 2, makerId: 2 }),
    ).toThrow(/propia solicitud/);
    expect(() =>
      checkTransition(cuiApprovalMachine, { from: 'APROBADO', to: 'RECHAZADO', permissions: all, actorId: 1 }),
    ).toThrow('La solicitud de CUI ya está en estado «Aprobado» y no admite más cambios.');
  });
});

describe('transition rules (properties)', () => {
  it('never allows a transition outside the declaration, and allows exactly those permitted', () => {
    fc.assert(
      fc.property(state, state, perms, ids, ids, comment, (from, to, p, actorId, makerId, c) => {
        const declared = findTransition(planilla, from, to);
        const code = codeOf(() => checkTransition(planilla, { from, to, comment: c, permissions: p, actorId, makerId }));
        if (!declared) return code === 'CONFLICT';
        const held = !!p[declared.permission.resource]?.[declared.permission.action];
        const maker = declared.notByMaker && actorId != null && actorId === makerId;
        const missingComment = declared.commentRequired && !c?.trim();
        const expected = !held || maker ? 'FORBIDDEN' : missingComment ? 'VALIDATION' : null;
        return code === expected;
      }),
    );
  });

  it('lists as allowed exactly the transitions checkTransition lets through with a comment', () => {
    fc.assert(
      fc.property(state, perms, ids, ids, (from, p, actorId, makerId) => {
        const allowed = allowedTransitions(planilla, from, p, { actorId, makerId }).map((t) => t.to);
        const passing = planillaStates.filter(
          (to) =>
            codeOf(() => checkTransition(planilla, { from, to, comment: 'motivo', permissions: p, actorId, makerId })) === null,
        );
        expect(allowed).toEqual(passing);
      }),
    );
  });

  it('requires a comment on every comment-required transition, in the request schema too', () => {
    const schema = transitionRequestSchemaFor(planilla);
    fc.assert(
      fc.property(state, comment, (to: PlanillaState, c) => {
        const ways = planilla.transitions.filter((t) => t.to === to);
        const r = schema.safeParse({ to, comment: c });
        const needs = ways.length > 0 && ways.every((t) => t.commentRequired);
        if (needs && !c?.trim()) return !r.success && r.error.issues[0].path[0] === 'comment';
        return r.success;
      }),
    );
    expect(schema.safeParse({ to: 'CERRADA' }).success).toBe(false);
    expect(cuiDecisionSchema.safeParse({ to: 'RECHAZADO', comment: ' ' }).success).toBe(false);
    expect(cuiDecisionSchema.parse({ to: 'APROBADO', comment: '', expected: 'PENDIENTE' })).toEqual({
      to: 'APROBADO',
      comment: null,
      expected: 'PENDIENTE',
    });
  });

  it('returns the comment trimmed, or null', () => {
    const all = allPermissions();
    expect(
      checkTransition(planilla, { from: 'EN_REVISION', to: 'OBSERVADA', comment: '  falta X  ', permissions: all, actorId: 1 })
        .comment,
    ).toBe('falta X');
    expect(
      checkTransition(planilla, { from: 'BORRADOR', to: 'ENVIADA', comment: ' ', permissions: all, actorId: 1 }).comment,
    ).toBeNull();
  });
});
