import { describe, expect, it } from 'vitest';
import { legalCaseMachine, stageProblem } from './legal.ts';

describe('legal case stages', () => {
  it('goes to CONVENIO only with an agreement in force', () => {
    expect(stageProblem('CONVENIO', { outstanding: 100n, agreement: null })).toMatch(/convenio de pago vigente/);
    expect(stageProblem('CONVENIO', { outstanding: 100n, agreement: 'INCUMPLIDO' })).not.toBeNull();
    expect(stageProblem('CONVENIO', { outstanding: 100n, agreement: 'VIGENTE' })).toBeNull();
  });
  it('closes only with the debt paid or an agreement in force or fulfilled', () => {
    expect(stageProblem('CERRADO', { outstanding: 1n, agreement: null })).toMatch(/deuda pagada/);
    expect(stageProblem('CERRADO', { outstanding: 1n, agreement: 'ANULADO' })).not.toBeNull();
    expect(stageProblem('CERRADO', { outstanding: 0n, agreement: null })).toBeNull();
    expect(stageProblem('CERRADO', { outstanding: 5n, agreement: 'CUMPLIDO' })).toBeNull();
    expect(stageProblem('CERRADO', { outstanding: 5n, agreement: 'VIGENTE' })).toBeNull();
  });
  it('a closed case is final; closing needs a reason', () => {
    expect(legalCaseMachine.transitions.some((t) => t.from.includes('CERRADO'))).toBe(false);
    expect(legalCaseMachine.transitions.find((t) => t.to === 'CERRADO')?.commentRequired).toBe(true);
  });
});
