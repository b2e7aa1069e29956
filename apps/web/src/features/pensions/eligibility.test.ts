import { describe, expect, it } from 'vitest';
import { eligibilityStep } from './eligibility.ts';

const issue = (code: 'EDAD' | 'COTIZACIONES' | 'EMPLEO_ACTIVO', severity: 'REFUSE' | 'WARN') => ({
  code,
  severity,
  message: `${code} ${severity}`,
  key: `pensions.${code}`,
});

describe('pension eligibility in the form', () => {
  it('saves at once when the history raises nothing', () => {
    expect(eligibilityStep({ issues: [] })).toEqual({ step: 'save' });
  });

  it('asks to confirm every warning, in the order the API gave them', () => {
    const warnings = [issue('COTIZACIONES', 'WARN'), issue('EMPLEO_ACTIVO', 'WARN'), issue('EMPLEO_ACTIVO', 'WARN')];
    expect(eligibilityStep({ issues: warnings })).toEqual({ step: 'confirm', warnings });
  });

  it('refuses (nothing to confirm) when any issue refuses, naming only the refusals', () => {
    const refusal = issue('EDAD', 'REFUSE');
    expect(eligibilityStep({ issues: [issue('COTIZACIONES', 'WARN'), refusal, issue('EMPLEO_ACTIVO', 'WARN')] })).toEqual({
      step: 'refuse',
      refusals: [refusal],
    });
  });
});
